import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Platform } from '@ferry/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintsOnce, type InputsKey } from './fingerprint-reuse.js';

/** The reuse around the fingerprint command, with a key the test controls (commands/fingerprint-reuse.test.ts runs the real one). */
describe('fingerprintsOnce', () => {
  let dir: string;
  let store: string;
  let key: InputsKey;
  let keys: number;
  let computed: Platform[];
  const lines: string[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-reuse-'));
    store = path.join(dir, 'fingerprints.json');
    key = { key: 'k1' };
    keys = 0;
    computed = [];
    lines.length = 0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const make = (compute?: (platform: Platform) => Promise<{ hash: string }>, env: Record<string, string> = {}) =>
    fingerprintsOnce({
      env: { FERRY_FINGERPRINT_CACHE: store, ...env },
      command: 'test',
      log: (line) => lines.push(line),
      inputsKey: async () => {
        keys++;
        return key;
      },
      compute: async (_root, platform) => {
        computed.push(platform);
        return compute ? compute(platform) : { hash: `${platform}-${key && 'key' in key ? key.key : '?'}` };
      },
    });

  it('both platforms at once: one key before, one after, both stored; the next command computes nothing', async () => {
    const first = make();
    expect(await Promise.all([first('/app', 'ios'), first('/app', 'android')])).toEqual([
      { hash: 'ios-k1' },
      { hash: 'android-k1' },
    ]);
    expect(keys).toBe(2);
    const next = make();
    expect(await next('/app', 'ios')).toEqual({ hash: 'ios-k1' });
    expect(await next('/app', 'android')).toEqual({ hash: 'android-k1' });
    expect(computed).toEqual(['ios', 'android']);
    expect(lines.at(-1)).toMatch(/^android: fingerprint android-k1 \(computed by test in this job/);
  });

  it('once per command run without the file (the variable empty or blank)', async () => {
    for (const env of [{ FERRY_FINGERPRINT_CACHE: '' }, { FERRY_FINGERPRINT_CACHE: ' ' }]) {
      computed = [];
      const run = make(undefined, env);
      await run('/app', 'ios');
      await run('/app', 'ios');
      expect(computed).toEqual(['ios']);
    }
    expect(fs.existsSync(store)).toBe(false);
  });

  it('a key that changed while computing: the value is returned, not stored', async () => {
    const run = make(async (platform) => {
      key = { key: 'k2' };
      return { hash: `${platform}-during` };
    });
    expect(await run('/app', 'ios')).toEqual({ hash: 'ios-during' });
    expect(lines).toContain('ios: the checkout changed while the fingerprint was computed; not stored for reuse');
    await make()('/app', 'ios');
    expect(computed).toEqual(['ios', 'ios']);
  });

  it('another key: computes again and replaces the entry', async () => {
    await make()('/app', 'ios');
    key = { key: 'k2' };
    expect(await make()('/app', 'ios')).toEqual({ hash: 'ios-k2' });
    key = { key: 'k1' };
    expect(await make()('/app', 'ios')).toEqual({ hash: 'ios-k1' });
    expect(computed).toEqual(['ios', 'ios', 'ios']);
  });

  it('no key (not a checkout): computes, says why, stores nothing', async () => {
    key = { unkeyable: '/app is not in a git checkout with a commit' };
    await make()('/app', 'ios');
    expect(lines).toEqual(['ios: computing the fingerprint (not reused: /app is not in a git checkout with a commit)']);
    expect(fs.existsSync(store)).toBe(false);
  });

  it('a failure is not kept: the next call of the same run computes again', async () => {
    let fail = true;
    const run = make(async (platform) => {
      if (fail) throw new Error('not installed');
      return { hash: `${platform}-ok` };
    });
    await expect(run('/app', 'ios')).rejects.toThrow('not installed');
    fail = false;
    expect(await run('/app', 'ios')).toEqual({ hash: 'ios-ok' });
  });

  it('an unreadable file is an empty one', async () => {
    fs.writeFileSync(store, 'not json');
    expect(await make()('/app', 'ios')).toEqual({ hash: 'ios-k1' });
    expect(JSON.parse(fs.readFileSync(store, 'utf8')).version).toBe(1);
  });
});
