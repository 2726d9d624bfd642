import type { CertificateDocument } from '@ferry/contracts';
import { isKnownRegion, siggOf } from '../identity/regions.js';
import { isResidentNumberBack, isResidentNumberFront } from '../identity/resident-number.js';
import { type IntroErrors, type IntroInput, needsAddress } from './funnel-state.js';

export const FAMILY_NAME_MAX = 64;
const FAMILY_FIELDS = ['fthrNm', 'mthrNm', 'sposNm', 'childNm'] as const;

/**
 * The intro step's rules, with a sentence per failing field. The server checks the same rules
 * (the contracts' schemas); checking here first keeps the plain back part from ever being sent
 * in a request that is bound to fail.
 */
export function validateIntro(document: CertificateDocument, intro: IntroInput): IntroErrors {
  const errors: IntroErrors = {};
  if (!isResidentNumberFront(intro.front)) {
    errors.front = 'Enter the first 6 digits of your resident registration number (your birth date, YYMMDD).';
  }
  if (!isResidentNumberBack(intro.back)) {
    errors.back = 'Enter the last 7 digits of your resident registration number.';
  }
  if (needsAddress(document)) {
    if (siggOf(intro.sido).length === 0) errors.sido = 'Choose the province or city of your registered address.';
    else if (!isKnownRegion(intro.sido, intro.sigg)) errors.sigg = 'Choose the district of your registered address.';
  } else {
    for (const field of FAMILY_FIELDS) {
      if (intro[field].trim().length > FAMILY_NAME_MAX) {
        errors[field] = `A name can have at most ${FAMILY_NAME_MAX} characters.`;
      }
    }
    if (FAMILY_FIELDS.every((field) => intro[field].trim() === '')) {
      errors.fthrNm = "Enter at least one family member's name (father, mother, spouse or child).";
    }
  }
  return errors;
}

export const isIntroValid = (errors: IntroErrors): boolean => Object.keys(errors).length === 0;
