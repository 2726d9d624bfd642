import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { IDENTITY_ENCRYPTION } from '@ferry/contracts';
import { SensitiveDigits } from './sensitive-digits.js';

const { algorithm, keyBytes, ivBytes } = IDENTITY_ENCRYPTION;

/** The payload could not be decrypted to 7 digits. Carries no content, so it is safe to report. */
export class UndecryptableIdentityError extends Error {
  override name = 'UndecryptableIdentityError';
  constructor() {
    super('the encrypted identity part does not decrypt to 7 digits with the shared key');
  }
}

const assertKey = (key: Buffer) => {
  if (key.length !== keyBytes) throw new Error(`the identity key must be ${keyBytes} bytes`);
};

/**
 * Decrypts what a client sent: Base64 of (16-byte IV, AES-256-CBC/PKCS#7 ciphertext). The result
 * must be exactly 7 digits, the back part of a resident registration number.
 */
export function decryptIdentityPart(payloadBase64: string, key: Buffer): SensitiveDigits {
  assertKey(key);
  const payload = Buffer.from(payloadBase64, 'base64');
  if (payload.length < ivBytes + 16 || (payload.length - ivBytes) % 16 !== 0) throw new UndecryptableIdentityError();
  let plain: Buffer;
  try {
    const decipher = createDecipheriv(algorithm, key, payload.subarray(0, ivBytes));
    plain = Buffer.concat([decipher.update(payload.subarray(ivBytes)), decipher.final()]);
  } catch {
    throw new UndecryptableIdentityError();
  }
  const digits = plain.toString('latin1');
  plain.fill(0);
  if (!/^\d{7}$/.test(digits)) throw new UndecryptableIdentityError();
  return new SensitiveDigits(digits);
}

/**
 * What the web and native clients do, for tests, the benchmark and tooling: a fresh random IV on
 * every call, output Base64(IV + ciphertext).
 */
export function encryptIdentityPart(digits: string, key: Buffer, iv: Buffer = randomBytes(ivBytes)): string {
  assertKey(key);
  const cipher = createCipheriv(algorithm, key, iv);
  return Buffer.concat([iv, cipher.update(digits, 'utf8'), cipher.final()]).toString('base64');
}
