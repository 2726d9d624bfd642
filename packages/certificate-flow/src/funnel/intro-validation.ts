import type { CertificateDocument } from '@ferry/contracts';
import { isKnownRegion, siggOf } from '../identity/regions.js';
import { frontProblem, isResidentNumberBack } from '../identity/resident-number.js';
import { type IntroErrors, type IntroInput, needsAddress } from './funnel-state.js';

export const FAMILY_NAME_MAX = 64;
const FAMILY_FIELDS = ['fthrNm', 'mthrNm', 'sposNm', 'childNm'] as const;

/**
 * The intro step's rules, with a message (catalogue key) per failing field. The server checks the same rules
 * (the contracts' schemas); checking here first keeps the plain back part from ever being sent
 * in a request that is bound to fail.
 */
export function validateIntro(document: CertificateDocument, intro: IntroInput): IntroErrors {
  const errors: IntroErrors = {};
  const front = frontProblem(intro.front);
  if (front) errors.front = { key: `validation.front.${front}` };
  // Says how many digits are there, so the person sees how many are missing.
  if (!isResidentNumberBack(intro.back)) errors.back = { key: 'validation.back', values: { count: intro.back.length } };
  if (needsAddress(document)) {
    if (siggOf(intro.sido).length === 0) errors.sido = { key: 'validation.sido' };
    else if (!isKnownRegion(intro.sido, intro.sigg)) errors.sigg = { key: 'validation.sigg' };
  } else {
    for (const field of FAMILY_FIELDS) {
      if (intro[field].trim().length > FAMILY_NAME_MAX) {
        errors[field] = { key: 'validation.nameTooLong', values: { max: FAMILY_NAME_MAX } };
      }
    }
    if (FAMILY_FIELDS.every((field) => intro[field].trim() === '')) {
      errors.fthrNm = { key: 'validation.familyRequired' };
    }
  }
  return errors;
}

export const isIntroValid = (errors: IntroErrors): boolean => Object.keys(errors).length === 0;
