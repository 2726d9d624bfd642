import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeAesKey } from '../../src/encryption/aes-key.js';
import { EncryptionError, type IdentityCipher } from '../../src/encryption/identity-cipher.js';
import { splitPayload } from '../../src/encryption/payload.js';
import { createPureJsCipher } from '../../src/encryption/pure-js-cipher.js';
import { createWebCryptoCipher } from '../../src/encryption/webcrypto-cipher.js';
import { createNodeCipher, TEST_AES_KEY } from '../support/node-cipher.js';

const IMPLEMENTATIONS: Array<[string, IdentityCipher]> = [
  ['node:crypto', createNodeCipher(TEST_AES_KEY)],
  ['WebCrypto', createWebCryptoCipher(TEST_AES_KEY)],
  ['pure-JS', createPureJsCipher(TEST_AES_KEY)],
];
const PAIRS = IMPLEMENTATIONS.flatMap(([from, encryptor]) =>
  IMPLEMENTATIONS.map(([to, decryptor]) => ({ from, to, encryptor, decryptor })),
);
// One block, an exact block (PKCS#7 then adds a whole padding block), several blocks, non-ASCII.
const PLAINTEXTS = ['1234567', '0000000', '9'.repeat(16), 'x'.repeat(40), '주민번호'];

describe('identity encryption: every implementation decrypts what every other encrypts', () => {
  it.each(PAIRS)('$from → $to', async ({ encryptor, decryptor }) => {
    for (const plain of PLAINTEXTS) {
      expect(await decryptor.decrypt(await encryptor.encrypt(plain))).toBe(plain);
    }
  });
});

describe.each(IMPLEMENTATIONS.slice(1))('%s cipher', (_name, cipher) => {
  it('outputs Base64 of a 16-byte IV followed by whole AES blocks', async () => {
    const payload = await cipher.encrypt('1234567');
    expect(payload).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const bytes = Buffer.from(payload, 'base64');
    expect(bytes.length).toBe(32);
    const { iv, ciphertext } = splitPayload(payload);
    expect(iv.length).toBe(16);
    expect(ciphertext.length).toBe(16);
  });

  it('uses a new IV on every call, so equal inputs give different outputs', async () => {
    const outputs = await Promise.all(Array.from({ length: 20 }, () => cipher.encrypt('1234567')));
    expect(new Set(outputs).size).toBe(20);
    expect(new Set(outputs.map((p) => p.slice(0, 22))).size).toBe(20);
  });

  it('refuses to decrypt with another key instead of returning garbage', async () => {
    // A fixed IV keeps this deterministic: a random one would pass the padding check 1 time in ~256.
    const other = createPureJsCipher(Buffer.alloc(32, 9).toString('base64'), { randomBytes: (n) => new Uint8Array(n) });
    await expect(cipher.decrypt(await other.encrypt('1234567'))).rejects.toThrow(EncryptionError);
  });

  it.each([
    ['not Base64', '!!!!'],
    ['shorter than IV + one block', Buffer.alloc(16).toString('base64')],
    ['not whole blocks', Buffer.alloc(40).toString('base64')],
  ])('rejects a payload that is %s', async (_case, payload) => {
    await expect(cipher.decrypt(payload)).rejects.toThrow(EncryptionError);
  });
});

describe('pure-JS cipher with an injected random source', () => {
  it('matches node:crypto byte for byte for the same IV (a fixed vector)', async () => {
    const iv = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
    const cipher = createPureJsCipher(TEST_AES_KEY, { randomBytes: (n) => new Uint8Array(iv.subarray(0, n)) });
    const reference = createCipheriv('aes-256-cbc', Buffer.from(TEST_AES_KEY, 'base64'), iv);
    const expected = Buffer.concat([iv, reference.update('1234567', 'utf8'), reference.final()]).toString('base64');
    expect(await cipher.encrypt('1234567')).toBe(expected);
  });

  it('asks the random source for exactly 16 bytes per call and rejects a short answer', async () => {
    const asked: number[] = [];
    const good = createPureJsCipher(TEST_AES_KEY, {
      randomBytes: (n) => {
        asked.push(n);
        return new Uint8Array(n);
      },
    });
    await good.encrypt('1234567');
    await good.encrypt('7654321');
    expect(asked).toEqual([16, 16]);
    const short = createPureJsCipher(TEST_AES_KEY, { randomBytes: () => new Uint8Array(8) });
    await expect(short.encrypt('1234567')).rejects.toThrow(EncryptionError);
  });
});

describe('the AES key', () => {
  it.each([
    ['16 bytes (the v1 key size)', Buffer.alloc(16).toString('base64')],
    ['33 bytes', Buffer.alloc(33).toString('base64')],
    ['empty', ''],
    ['not Base64', 'not a key!'],
  ])('is rejected when it is %s', (_case, key) => {
    expect(() => decodeAesKey(key)).toThrow(EncryptionError);
    expect(() => createWebCryptoCipher(key)).toThrow(EncryptionError);
    expect(() => createPureJsCipher(key)).toThrow(EncryptionError);
  });

  it('never appears in the error message', () => {
    const wrong = Buffer.alloc(31, 1).toString('base64');
    expect(() => decodeAesKey(wrong)).toThrow(/must be 32 bytes; it has 31/);
    try {
      decodeAesKey(wrong);
    } catch (error) {
      expect(String(error)).not.toContain(wrong);
    }
  });

  it('accepts raw bytes as well as Base64', async () => {
    const bytes = new Uint8Array(Buffer.from(TEST_AES_KEY, 'base64'));
    const payload = await createPureJsCipher(bytes).encrypt('1234567');
    expect(await createNodeCipher(TEST_AES_KEY).decrypt(payload)).toBe('1234567');
  });
});
