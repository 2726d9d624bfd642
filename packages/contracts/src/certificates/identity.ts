import { z } from 'zod';

import { isResidentNumberFrontDate, SIX_DIGITS } from './resident-number-date.js';

export { isResidentNumberFrontDate };

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
