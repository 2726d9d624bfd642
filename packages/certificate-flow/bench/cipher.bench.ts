/**
 * How fast each identity cipher encrypts (and decrypts) the 7-digit back part, against node:crypto
 * measured in the same process as the baseline. The pure-JS cipher is what native devices run, so
 * its ratio says what a phone pays compared with native code (a phone is slower in absolute terms).
 *
 *   npm run bench:cipher
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import type { IdentityCipher } from '../src/encryption/identity-cipher.js';
import { createPureJsCipher } from '../src/encryption/pure-js-cipher.js';
import { createWebCryptoCipher } from '../src/encryption/webcrypto-cipher.js';

const KEY = randomBytes(32);
const DIGITS = '1234567';
const ROUNDS = 5;
const OPS_PER_ROUND = 5_000;

const nodeCipher: Pick<IdentityCipher, 'encrypt'> = {
  async encrypt(plain) {
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-cbc', KEY, iv);
    return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
  },
};

/** Median ops/s over ROUNDS rounds of OPS_PER_ROUND sequential calls (as a client makes them). */
async function opsPerSecond(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 500; i++) await run();
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < OPS_PER_ROUND; i++) await run();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    rates.push(OPS_PER_ROUND / seconds);
  }
  return rates.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
}

const web = createWebCryptoCipher(KEY);
const pure = createPureJsCipher(KEY);
const webPayload = await web.encrypt(DIGITS);

const rows: Array<[string, () => Promise<unknown>]> = [
  ['node:crypto encrypt (baseline)', () => nodeCipher.encrypt(DIGITS)],
  ['WebCrypto encrypt', () => web.encrypt(DIGITS)],
  ['pure-JS encrypt', () => pure.encrypt(DIGITS)],
  ['WebCrypto decrypt', () => web.decrypt(webPayload)],
  ['pure-JS decrypt', () => pure.decrypt(webPayload)],
];

const results: Array<{ name: string; ops: number }> = [];
for (const [name, run] of rows) results.push({ name, ops: await opsPerSecond(run) });
const baseline = results[0]!.ops;

const pad = (text: string, width: number) => text.padEnd(width);
process.stdout.write(
  `\nidentity cipher, ${DIGITS.length}-digit payload, median of ${ROUNDS} × ${OPS_PER_ROUND} calls\n\n`,
);
process.stdout.write(`${pad('implementation', 32)}${pad('ops/s', 12)}µs/op    vs baseline\n`);
for (const { name, ops } of results) {
  const ratio = ops / baseline;
  process.stdout.write(
    `${pad(name, 32)}${pad(Math.round(ops).toLocaleString('en'), 12)}${pad((1e6 / ops).toFixed(1), 9)}${ratio.toFixed(2)}×\n`,
  );
}
process.stdout.write('\n');
