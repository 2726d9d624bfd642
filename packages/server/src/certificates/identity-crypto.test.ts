import { createCipheriv, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { decryptIdentityPart, encryptIdentityPart, UndecryptableIdentityError } from './identity-crypto.js';

const key = randomBytes(32);
const encryptRaw = (plain: string, withKey = key, iv = randomBytes(16)) => {
  const cipher = createCipheriv('aes-256-cbc', withKey, iv);
  return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
};

describe('identity transport encryption (AES-256-CBC, Base64 of IV + ciphertext)', () => {
  it('round-trips the 7 digits, with a new IV every call', () => {
    const a = encryptIdentityPart('1572936', key);
    const b = encryptIdentityPart('1572936', key);
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64')).toHaveLength(32);
    expect(decryptIdentityPart(a, key).reveal()).toBe('1572936');
    expect(decryptIdentityPart(b, key).reveal()).toBe('1572936');
  });

  it.each([
    ['6 digits', encryptRaw('157293')],
    ['8 digits', encryptRaw('15729361')],
    ['letters', encryptRaw('abcdefg')],
    ['digits with a space', encryptRaw('157 936')],
    ['another key', encryptRaw('1572936', randomBytes(32))],
    [
      'a flipped ciphertext byte',
      (() => {
        const raw = Buffer.from(encryptRaw('1572936'), 'base64');
        raw[20] = (raw[20] ?? 0) ^ 0xff;
        return raw.toString('base64');
      })(),
    ],
    ['only an IV', randomBytes(16).toString('base64')],
    ['not whole blocks', randomBytes(40).toString('base64')],
    ['empty', ''],
  ])('refuses %s', (_name, payload) => {
    expect(() => decryptIdentityPart(payload, key)).toThrow(UndecryptableIdentityError);
  });

  it('the error and the decrypted value never show the digits', () => {
    const digits = decryptIdentityPart(encryptIdentityPart('1572936', key), key);
    expect(String(digits)).not.toContain('1572936');
    expect(JSON.stringify({ digits })).not.toContain('1572936');
    expect(inspect({ digits })).not.toContain('1572936');
    expect(`${digits}`).not.toContain('1572936');
    expect(new UndecryptableIdentityError().message).not.toMatch(/\d{7}/);
  });

  it('needs a 32-byte key', () => {
    expect(() => encryptIdentityPart('1572936', randomBytes(16))).toThrow(/32 bytes/);
  });
});
