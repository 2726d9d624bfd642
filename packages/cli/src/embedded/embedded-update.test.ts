import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appManifest, launchBundle } from '../../test/support/build-products.js';
import { readExplicitFiles } from './embedded-update.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-embedded-files-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const id = randomUUID();
const bundle = launchBundle(1000);
const file = (name: string, content: string | Buffer) => {
  fs.writeFileSync(path.join(dir, name), content);
  return path.join(dir, name);
};
const refusal = (files: Parameters<typeof readExplicitFiles>[0]) =>
  readExplicitFiles(files).then(
    () => 'read',
    (error: Error) => error.message,
  );

describe('readExplicitFiles: --manifest or --update-id, with --bundle', () => {
  it('--manifest gives the update id (and a runtimeVersion it carries), --bundle the bytes', async () => {
    const manifest = file('app.manifest', appManifest(id, { runtimeVersion: '2.0.0(7)' }));
    const update = await readExplicitFiles({ manifest, bundle: file('main.jsbundle', bundle) });
    expect(update).toMatchObject({ updateId: id, runtimeVersion: '2.0.0(7)', from: { updateId: manifest } });
    expect(update.platform).toBeUndefined();
    expect(update.bundle.equals(bundle)).toBe(true);
  });

  it('--update-id gives the id itself', async () => {
    const update = await readExplicitFiles({ updateId: id, bundle: file('b', bundle) });
    expect(update).toMatchObject({ updateId: id, from: { updateId: '--update-id', bundle: path.join(dir, 'b') } });
  });

  it('refuses both or neither of --manifest and --update-id, a bad id, missing files and an empty bundle', async () => {
    const bundleFile = file('b', bundle);
    const both = await refusal({ manifest: file('m', appManifest(id)), updateId: id, bundle: bundleFile });
    expect(both).toMatch(/exactly one of --manifest <app\.manifest> or --update-id <uuid>/);
    expect(await refusal({ bundle: bundleFile })).toBe(both);
    expect(await refusal({ updateId: 'abc', bundle: bundleFile })).toBe('--update-id "abc" is not a UUID.');
    expect(await refusal({ updateId: id, bundle: path.join(dir, 'nope') })).toBe(
      `${path.join(dir, 'nope')} does not exist (the launch bundle).`,
    );
    expect(await refusal({ manifest: path.join(dir, 'nope.manifest'), bundle: bundleFile })).toBe(
      `${path.join(dir, 'nope.manifest')} does not exist (the app.manifest).`,
    );
    expect(await refusal({ updateId: id, bundle: file('empty', '') })).toBe(
      `${path.join(dir, 'empty')} is empty: it is not a launch bundle.`,
    );
    expect(await refusal({ manifest: file('no-id', '{"assets":[]}'), bundle: bundleFile })).toMatch(
      /no-id has no "id"/,
    );
  });
});
