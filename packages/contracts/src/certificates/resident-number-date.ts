// No zod here: the funnels import this rule on its own (`@ferry/contracts/resident-number`).

export const SIX_DIGITS = /^\d{6}$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/**
 * Whether six digits YYMMDD are a real calendar date: month 01–12, a day that month has. The
 * century is not among them (the back part carries it, and only encrypted), so 29 February counts
 * when 19YY or 20YY is a leap year, i.e. when YY is divisible by 4 (`00`: 1900 is not, 2000 is).
 * The one rule for birthDate and rrn1, on the server and in the clients.
 */
export function isResidentNumberFrontDate(yymmdd: string): boolean {
  if (!SIX_DIGITS.test(yymmdd)) return false;
  const year = Number(yymmdd.slice(0, 2));
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  if (month < 1 || month > 12 || day < 1) return false;
  if (month === 2 && day === 29) return year % 4 === 0;
  return day <= (DAYS_IN_MONTH[month - 1] ?? 0);
}
