import { describe, expect, it } from 'vitest';
import { decryptIdentityPart } from '../../../server/src/certificates/identity-crypto.js';
import type { IdentityCipher } from '../../src/encryption/identity-cipher.js';
import { createPureJsCipher } from '../../src/encryption/pure-js-cipher.js';
import { createWebCryptoCipher } from '../../src/encryption/webcrypto-cipher.js';
import { createNodeCipher, TEST_AES_KEY } from '../support/node-cipher.js';

const key = Buffer.from(TEST_AES_KEY, 'base64');
const CLIENTS: Array<[string, IdentityCipher]> = [
  ['node:crypto', createNodeCipher(TEST_AES_KEY)],
  ['WebCrypto', createWebCryptoCipher(TEST_AES_KEY)],
  ['pure-JS', createPureJsCipher(TEST_AES_KEY)],
];

describe("the server's decryption reads every client's output", () => {
  it.each(CLIENTS)('%s', async (_name, cipher) => {
    for (const digits of ['1234567', '0000000', '9876543']) {
      const decrypted = decryptIdentityPart(await cipher.encrypt(digits), key);
      expect(decrypted.reveal()).toBe(digits);
    }
  });
});
