import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AssetEncodings, encodedKey } from './asset-encodings.js';
import { LocalObjectStore } from './local-object-store.js';
import { ObjectUrlSigner } from './object-url-signer.js';
import { StorageFull } from './storage-full.js';

const KEY = 'updates/production/1/assets/abc';
const TEXT = Buffer.from('export const value = 42;\n'.repeat(500));

describe('AssetEncodings', () => {
  const roots: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });

  const setup = (now?: () => number) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-encodings-'));
    roots.push(root);
    const store = new LocalObjectStore({
      directory: root,
      baseUrl: () => 'http://127.0.0.1/objects',
      signer: new ObjectUrlSigner(Buffer.alloc(32, 1)),
    });
    const warnings: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
    return { store, encodings: new AssetEncodings(store, log, now), warnings };
  };

  it('makes the brotli and gzip forms once, however many callers ask at the same time', async () => {
    const { store, encodings } = setup();
    await store.put(KEY, TEXT, { contentType: 'application/javascript' });
    const puts = vi.spyOn(store, 'put');
    await Promise.all([encodings.prepare(KEY), encodings.prepare(KEY), encodings.prepare(KEY)]);
    await encodings.prepare(KEY);
    expect(puts.mock.calls.map(([key]) => key.split('/')[1]).sort()).toEqual(['br', 'gzip']);
    const source = (await store.head(KEY))!;
    const br = await store.get(encodedKey(KEY, source, 'br'));
    const chunks: Buffer[] = [];
    for await (const chunk of br!.body) chunks.push(chunk as Buffer);
    expect(zlib.brotliDecompressSync(Buffer.concat(chunks)).equals(TEXT)).toBe(true);
    expect(br!.contentType).toBe('application/javascript');
  });

  it('leaves already-compressed types, tiny assets and missing keys alone', async () => {
    const { store, encodings } = setup();
    await store.put(KEY, Buffer.alloc(5000, 7), { contentType: 'image/png' });
    await store.put(`${KEY}-small`, Buffer.from('x'), { contentType: 'application/javascript' });
    const puts = vi.spyOn(store, 'put');
    await encodings.prepare(KEY);
    await encodings.prepare(`${KEY}-small`);
    await encodings.prepare(`${KEY}-missing`);
    expect(puts).not.toHaveBeenCalled();
  });

  it('a failure is logged and swallowed, and serving asks again at most once a minute', async () => {
    const { store, encodings, warnings } = setup();
    await store.put(KEY, TEXT, { contentType: 'application/javascript' });
    const puts = vi.spyOn(store, 'put').mockRejectedValue(new Error('disk full'));
    await expect(encodings.prepare(KEY)).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(await encodings.find(KEY, (await store.head(KEY))!, 'br')).toBeUndefined();

    const reads = vi.spyOn(store, 'read');
    encodings.prepareLater(KEY);
    encodings.prepareLater(KEY);
    // Joins the background attempt the first request started.
    await encodings.prepare(KEY);
    encodings.prepareLater(KEY);
    await encodings.prepare(KEY);
    // One background attempt for three requests, none for the fourth (within the minute), and the
    // last explicit prepare; each attempt stopped at its first write (br).
    expect(reads).toHaveBeenCalledTimes(2);
    expect(puts).toHaveBeenCalledTimes(3);
    expect(warnings).toHaveLength(3);
  });

  it('a full store is one line a minute, counting the assets left uncompressed, without a stack', async () => {
    let now = 1_000_000;
    const { store, encodings, warnings } = setup(() => now);
    const keys = ['a', 'b', 'c', 'd'].map((name) => `${KEY}-${name}`);
    for (const key of keys) await store.put(key, TEXT, { contentType: 'application/javascript' });
    vi.spyOn(store, 'put').mockRejectedValue(new StorageFull('local', 'ENOSPC'));

    await encodings.prepare(keys[0]!);
    await encodings.prepare(keys[1]!);
    await encodings.prepare(keys[2]!);
    expect(warnings).toHaveLength(1);
    now += 60_000;
    await encodings.prepare(keys[3]!);
    expect(warnings.map((line) => [line.msg, line.assets, line.reason])).toEqual([
      [expect.stringMatching(/object storage is full.*served uncompressed/), 1, 'ENOSPC'],
      [expect.stringMatching(/object storage is full/), 3, 'ENOSPC'],
    ]);
    for (const line of warnings) expect(line).not.toHaveProperty('err');
  });
});
