import { isResidentNumberFrontDate, SIX_DIGITS } from '@ferry/contracts/resident-number';

/**
 * The two parts of a resident registration number as the person types them. The front (YYMMDD) is
 * sent plain; the back (7 digits) only ever leaves the device encrypted.
 */
export const FRONT_DIGITS = 6;
export const BACK_DIGITS = 7;

/**
 * Six digits that form a calendar date: the same rule the server applies to birthDate and rrn1
 * (29 February only when YY is divisible by 4), so the funnel never lets through what the server refuses.
 */
export const isResidentNumberFront = (value: string): boolean => isResidentNumberFrontDate(value);

/** What is wrong with a front part, so the person reads the fix: type all six digits, or a real date. */
export type FrontProblem = 'missing' | 'notADate';

/**
 * Why a front part is refused, or null when it is a valid one: fewer than six digits is `missing`;
 * six digits that are no calendar date (901301, 010229) are `notADate`, by the contracts' one date rule.
 */
export function frontProblem(value: string): FrontProblem | null {
  if (!SIX_DIGITS.test(value)) return 'missing';
  return isResidentNumberFrontDate(value) ? null : 'notADate';
}

export function isResidentNumberBack(value: string): boolean {
  return /^\d{7}$/.test(value);
}

/** Keeps only digits and cuts at the part's length: what a numeric field does while the person types. */
export const digitsOnly = (value: string, maxLength: number): string => value.replace(/\D/g, '').slice(0, maxLength);

/**
 * A numeric field's new value from what was typed or pasted, and whether anything else was typed:
 * the field keeps the digits, and says so when it refused something, rather than dropping it silently.
 */
export function digitEntry(typed: string, maxLength: number): { value: string; refused: boolean } {
  return { value: digitsOnly(typed, maxLength), refused: /\D/.test(typed) };
}
