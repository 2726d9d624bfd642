import { isResidentNumberFrontDate } from '@ferry/contracts/resident-number';

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

export function isResidentNumberBack(value: string): boolean {
  return /^\d{7}$/.test(value);
}

/** Keeps only digits and cuts at the part's length: what a numeric field does while the person types. */
export const digitsOnly = (value: string, maxLength: number): string => value.replace(/\D/g, '').slice(0, maxLength);
