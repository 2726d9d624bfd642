import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectStore } from '../../../src/storage/objects/local-object-store.js';
import { InvalidObjectKeyError } from '../../../src/storage/objects/object-key.js';
import type { ListedObject, ObjectStore } from '../../../src/storage/objects/object-store.js';
import { ObjectUrlSigner } from '../../../src/storage/objects/object-url-signer.js';
import { createS3Client, S3ObjectStore } from '../../../src/storage/objects/s3-object-store.js';
import { startTestS3, type TestS3 } from '../../support/s3.js';
import '../../support/s3rver-paging.js';

/**
 * list(prefix) and delete on both adapters: what garbage collection walks and removes. The S3
 * adapter pages through ListObjectsV2 (here two keys a page, so every listing crosses pages).
 */
const ADAPTERS = ['local', 's3'] as const;

for (const adapter of ADAPTERS) {
  describe(`ObjectStore list and delete [${adapter}]`, () => {
    let store: ObjectStore;
    let s3: TestS3 | undefined;
    let directory: string | undefined;
    let run = 0;

    beforeAll(async () => {
      if (adapter === 's3') {
        s3 = await startTestS3();
        const location = {
          bucket: s3.bucket,
          prefix: 'ferry',
          endpoint: s3.endpoint,
          forcePathStyle: true,
          region: 'us-east-1',
          credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        };
        store = new S3ObjectStore(location, { client: createS3Client(location), listPageSize: 2 });
      } else {
        directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-listing-'));
        store = new LocalObjectStore({
          directory,
          baseUrl: () => 'http://127.0.0.1/objects',
          signer: new ObjectUrlSigner(randomBytes(32)),
        });
      }
    });
    afterAll(async () => {
      await s3?.close();
      if (directory) fs.rmSync(directory, { recursive: true, force: true });
    });

    /** A root of its own per test, so tests never see each other's objects. */
    const rootOf = () => `listing-${++run}`;
    const listed = async (prefix: string): Promise<ListedObject[]> => {
      const all: ListedObject[] = [];
      for await (const object of store.list(prefix)) all.push(object);
      return all.sort((a, b) => (a.key < b.key ? -1 : 1));
    };
    const put = (key: string, bytes: number) =>
      store.put(key, randomBytes(bytes), { contentType: 'application/octet-stream' });

    it('lists every object under a prefix, across pages, with its size and last modification', async () => {
      const root = rootOf();
      const before = Date.now();
      const keys = [`${root}/a/1`, `${root}/a/2`, `${root}/a/deep/3`, `${root}/b/4`, `${root}/b/5`, `${root}-other/6`];
      for (const [index, key] of keys.entries()) await put(key, 10 + index);
      const after = Date.now();

      const all = await listed(`${root}/`);
      expect(all.map((object) => object.key)).toEqual(keys.slice(0, 5));
      expect(all.map((object) => object.size)).toEqual([10, 11, 12, 13, 14]);
      for (const object of all) {
        expect(object.lastModified).toBeInstanceOf(Date);
        // Stores keep whole seconds (S3) or milliseconds (files): compare at second precision.
        expect(Math.floor(object.lastModified.getTime() / 1000)).toBeGreaterThanOrEqual(Math.floor(before / 1000));
        expect(Math.floor(object.lastModified.getTime() / 1000)).toBeLessThanOrEqual(Math.ceil(after / 1000));
      }
      expect((await listed(`${root}/a/`)).map((object) => object.key)).toEqual(keys.slice(0, 3));
    });

    it('a prefix may end part-way through a segment, as on S3', async () => {
      const root = rootOf();
      for (const key of [`${root}/production/x`, `${root}/prod/y`, `${root}/preview/z`, `${root}/pro`])
        await put(key, 3);
      expect((await listed(`${root}/prod`)).map((object) => object.key)).toEqual([
        `${root}/prod/y`,
        `${root}/production/x`,
      ]);
      expect((await listed(`${root}/pr`)).length).toBe(4);
      expect((await listed(`${root}/pro`)).map((object) => object.key)).toEqual([
        `${root}/pro`,
        `${root}/prod/y`,
        `${root}/production/x`,
      ]);
    });

    it('an empty or missing prefix lists nothing and is no error', async () => {
      expect(await listed(`${rootOf()}/nothing-here/`)).toEqual([]);
      expect(await listed('no-such-root')).toEqual([]);
    });

    it('delete removes an object from head, get and listings; deleting nothing is no error', async () => {
      const root = rootOf();
      await put(`${root}/keep`, 4);
      await put(`${root}/gone/deep/object`, 5);
      await store.delete(`${root}/gone/deep/object`);
      await store.delete(`${root}/gone/deep/object`);
      await store.delete(`${root}/never-was`);
      expect(await store.head(`${root}/gone/deep/object`)).toBeUndefined();
      expect(await store.get(`${root}/gone/deep/object`)).toBeUndefined();
      expect((await listed(`${root}/`)).map((object) => object.key)).toEqual([`${root}/keep`]);
      // A key can be written again after its folders were removed.
      await put(`${root}/gone/deep/object`, 6);
      expect((await store.head(`${root}/gone/deep/object`))?.size).toBe(6);
    });

    it('a prefix that leaves the store is refused', async () => {
      for (const prefix of ['../', '/etc/', 'a/../b/', 'a//b', 'a\\b', 'caf\u00e9/']) {
        await expect(listed(prefix), prefix).rejects.toBeInstanceOf(InvalidObjectKeyError);
      }
    });

    if (adapter === 'local') {
      it('deleting the last object of a folder removes the folders it leaves empty, and no others', async () => {
        const root = rootOf();
        await put(`${root}/a/b/c/one`, 3);
        await put(`${root}/a/two`, 3);
        await store.delete(`${root}/a/b/c/one`);
        const dataRoot = path.join(directory!, 'data');
        expect(fs.existsSync(path.join(dataRoot, root, 'a', 'b'))).toBe(false);
        expect(fs.existsSync(path.join(dataRoot, root, 'a', 'two'))).toBe(true);
        await store.delete(`${root}/a/two`);
        expect(fs.existsSync(path.join(dataRoot, root))).toBe(false);
        expect(fs.existsSync(path.join(directory!, 'meta', root))).toBe(false);
        expect(fs.existsSync(dataRoot)).toBe(true);
      });

      it('files that are not valid keys are not listed', async () => {
        const root = rootOf();
        await put(`${root}/valid`, 3);
        fs.writeFileSync(path.join(directory!, 'data', root, 'caf\u00e9'), 'x');
        expect((await listed(`${root}/`)).map((object) => object.key)).toEqual([`${root}/valid`]);
      });
    }
  });
}
