/**
 * The two parts of a resident registration number as the person types them. The front (YYMMDD) is
 * sent plain; the back (7 digits) only ever leaves the device encrypted.
 */
export const FRONT_DIGITS = 6;
export const BACK_DIGITS = 7;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Six digits that form a calendar date (the century is in the back part, so 29 Feb is always allowed). */
export function isResidentNumberFront(value: string): boolean {
  if (!/^\d{6}$/.test(value)) return false;
  const month = Number(value.slice(2, 4));
  const day = Number(value.slice(4, 6));
  return month >= 1 && month <= 12 && day >= 1 && day <= (DAYS_IN_MONTH[month - 1] ?? 0);
}

export function isResidentNumberBack(value: string): boolean {
  return /^\d{7}$/.test(value);
}

/** Keeps only digits and cuts at the part's length: what a numeric field does while the person types. */
export const digitsOnly = (value: string, maxLength: number): string => value.replace(/\D/g, '').slice(0, maxLength);
