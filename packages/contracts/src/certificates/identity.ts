import { z } from 'zod';

const SIX_DIGITS = /^\d{6}$/;
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

/**
 * The plain front part of a resident registration number (birthDate, rrn1): six digits that are a
 * date (isResidentNumberFrontDate). Messages never repeat the digits.
 */
export const ResidentNumberFront = z
  .string()
  .regex(SIX_DIGITS, 'must be exactly 6 digits')
  // Only judged once the shape is right, so a wrong shape gets one message.
  .refine(
    (value) => !SIX_DIGITS.test(value) || isResidentNumberFrontDate(value),
    'must be a date as YYMMDD (month 01–12, a day that month has)',
  );

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const IV_BYTES = 16;
const BLOCK_BYTES = 16;

/** Bytes a Base64 string decodes to (valid Base64 assumed). */
const decodedLength = (value: string): number => (value.length / 4) * 3 - (value.match(/=*$/)?.[0].length ?? 0);

/**
 * The back part of a resident registration number as the client sends it: Base64 of a random
 * 16-byte IV followed by the AES-256-CBC ciphertext (whole blocks). Only the shape is checked
 * here; the server checks that it decrypts to exactly 7 digits.
 */
export const EncryptedResidentNumberBack = z
  .string()
  .min(1, 'must not be empty')
  .max(172, 'is too long for an encrypted 7-digit number')
  .regex(BASE64, 'must be Base64 (IV followed by ciphertext)')
  .refine((value) => {
    const bytes = decodedLength(value);
    return bytes >= IV_BYTES + BLOCK_BYTES && (bytes - IV_BYTES) % BLOCK_BYTES === 0;
  }, 'must be Base64 of a 16-byte IV followed by whole 16-byte AES blocks');

/** AES-256-CBC parameters both clients and the server use. */
export const IDENTITY_ENCRYPTION = { algorithm: 'aes-256-cbc', keyBytes: 32, ivBytes: IV_BYTES } as const;
