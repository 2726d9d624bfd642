import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeObjectStoreContract, useAdapter } from './object-store.contract.js';

describeObjectStoreContract('local');

// Creating a file costs ~0.5 ms of kernel time on ext4, so a small object whose key names its
// type is kept as its one data file (local-object-store.ts, putSmall).
describe('LocalObjectStore files on disk', () => {
  const ctx = useAdapter('local');
  const filesUnder = (directory: string): string[] =>
    fs.existsSync(directory) ? fs.readdirSync(directory, { recursive: true, encoding: 'utf8' }) : [];

  it.each([
    ['a small PDF', 'files/one/document.pdf', 'application/pdf', false],
    ['a small object of another type', 'files/two/asset', 'application/javascript', true],
    ['a PDF stored with a type its extension does not name', 'files/three/odd.pdf', 'text/plain', true],
  ])('%s: meta file written = %s', async (_name, key, contentType, metaFile) => {
    const { store, server } = ctx();
    await store.put(key, Buffer.from('%PDF-1.4 bytes'), { contentType });
    const root = path.join(server.dataDir, 'objects');
    expect(fs.existsSync(path.join(root, 'data', key))).toBe(true);
    expect(fs.existsSync(path.join(root, 'meta', `${key}.json`))).toBe(metaFile);
    expect(filesUnder(path.join(root, 'tmp'))).toEqual([]);
    expect((await store.head(key))?.contentType).toBe(contentType);
  });

  it('a PDF that replaces one with a meta file leaves no stale meta behind', async () => {
    const { store, server } = ctx();
    const key = 'files/four/replaced.pdf';
    await store.put(key, Buffer.from('first'), { contentType: 'text/plain' });
    await store.put(key, Buffer.from('other'), { contentType: 'application/pdf' });
    expect(fs.existsSync(path.join(server.dataDir, 'objects', 'meta', `${key}.json`))).toBe(false);
    expect(await store.head(key)).toMatchObject({ size: 5, contentType: 'application/pdf' });
  });
});
