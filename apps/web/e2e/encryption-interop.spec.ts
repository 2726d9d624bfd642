import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createPureJsCipher } from '@ferry/certificate-flow';
import { build, type Rolldown } from 'vite';
import { decryptIdentityPart } from '../../../packages/server/src/certificates/identity-crypto.js';
import { expect, test } from './support/fixtures.js';

const KEY = randomBytes(32).toString('base64');
const DIGITS = ['1234567', '0000000', '9081726'];

const nodeEncrypt = (plain: string): string => {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', Buffer.from(KEY, 'base64'), iv);
  return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
};
const nodeDecrypt = (payload: string): string => {
  const bytes = Buffer.from(payload, 'base64');
  const decipher = createDecipheriv('aes-256-cbc', Buffer.from(KEY, 'base64'), bytes.subarray(0, 16));
  return Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]).toString('utf8');
};

/** The shared package's ciphers, bundled for the browser as a global `FerryCiphers`. */
async function cipherBundle(): Promise<string> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: {
        entry: fileURLToPath(new URL('./support/cipher-bundle.ts', import.meta.url)),
        formats: ['iife'],
        name: 'FerryCiphers',
      },
    },
  })) as Rolldown.RolldownOutput[];
  const chunk = output[0]?.output.find((item) => item.type === 'chunk');
  if (chunk?.type !== 'chunk') throw new Error('no bundle');
  return chunk.code;
}

declare global {
  interface Window {
    FerryCiphers: typeof import('./support/cipher-bundle.js');
  }
}

// A real page of the app gives WebCrypto its secure context; CSP is bypassed only to load the bundle.
test.use({ bypassCSP: true });

test('node:crypto, WebCrypto in Chromium and pure-JS each decrypt what the others encrypt; the server reads all', async ({
  page,
}) => {
  await page.goto('/');
  await page.addScriptTag({ content: await cipherBundle() });

  const inBrowser = (kind: 'web' | 'pure', action: 'encrypt' | 'decrypt', input: string) =>
    page.evaluate(
      async ([kind, action, input, key]) => {
        const { createWebCryptoCipher, createPureJsCipher } = window.FerryCiphers;
        const cipher = kind === 'web' ? createWebCryptoCipher(key) : createPureJsCipher(key);
        return action === 'encrypt' ? cipher.encrypt(input) : cipher.decrypt(input);
      },
      [kind, action, input, KEY] as const,
    );
  const pureJsInNode = createPureJsCipher(KEY);

  const encryptors: Record<string, (plain: string) => Promise<string>> = {
    'node:crypto': async (plain) => nodeEncrypt(plain),
    'WebCrypto (Chromium)': (plain) => inBrowser('web', 'encrypt', plain),
    'pure-JS (Chromium)': (plain) => inBrowser('pure', 'encrypt', plain),
    'pure-JS (Node)': (plain) => pureJsInNode.encrypt(plain),
  };
  const decryptors: Record<string, (payload: string) => Promise<string>> = {
    'node:crypto': async (payload) => nodeDecrypt(payload),
    'WebCrypto (Chromium)': (payload) => inBrowser('web', 'decrypt', payload),
    'pure-JS (Chromium)': (payload) => inBrowser('pure', 'decrypt', payload),
    'pure-JS (Node)': (payload) => pureJsInNode.decrypt(payload),
    server: async (payload) => decryptIdentityPart(payload, Buffer.from(KEY, 'base64')).reveal(),
  };

  for (const [from, encrypt] of Object.entries(encryptors)) {
    for (const digits of DIGITS) {
      const payload = await encrypt(digits);
      expect(Buffer.from(payload, 'base64').length, from).toBe(32);
      for (const [to, decrypt] of Object.entries(decryptors)) {
        expect(await decrypt(payload), `${from} → ${to}`).toBe(digits);
      }
    }
  }

  // A fresh IV on every call in the browser too.
  const twice = [await inBrowser('web', 'encrypt', '1234567'), await inBrowser('web', 'encrypt', '1234567')];
  expect(twice[0]).not.toBe(twice[1]);
});
