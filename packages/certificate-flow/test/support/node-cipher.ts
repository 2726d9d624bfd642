import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { IdentityCipher } from '../../src/encryption/identity-cipher.js';

/** The server's side of the contract, written independently with node:crypto: the reference. */
export function createNodeCipher(keyBase64: string): IdentityCipher {
  const key = Buffer.from(keyBase64, 'base64');
  return {
    async encrypt(plain) {
      const iv = randomBytes(16);
      const cipher = createCipheriv('aes-256-cbc', key, iv);
      return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
    },
    async decrypt(payload) {
      const bytes = Buffer.from(payload, 'base64');
      const decipher = createDecipheriv('aes-256-cbc', key, bytes.subarray(0, 16));
      return Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]).toString('utf8');
    },
  };
}

/** A fixed, test-only key (32 bytes); never used outside tests. */
export const TEST_AES_KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7 + 3)).toString('base64');
