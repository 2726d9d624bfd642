import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { describe } from 'vitest';
import { LocalObjectStore } from '../../src/storage/objects/local-object-store.js';
import type { ObjectStore } from '../../src/storage/objects/object-store.js';
import { ObjectUrlSigner } from '../../src/storage/objects/object-url-signer.js';
import { S3ObjectStore } from '../../src/storage/objects/s3-object-store.js';
import './s3rver-paging.js';

/**
 * The two object stores garbage-collection tests run on, with a way to make every object stored so
 * far look old: the grace period is judged by each object's last modification (S3 LastModified, a
 * file's mtime), so a test ages objects instead of waiting or moving the server's clock.
 */
export type StoreName = 'local' | 's3';
export const STORES: StoreName[] = ['local', 's3'];

export interface GcTestStore {
  name: StoreName;
  /**
   * What points a server at this store: a bucket prefix of its own per call on S3, so servers in
   * one file never see each other's objects (nothing for the local store: DATA_DIR is the server's).
   */
  env(): Record<string, string>;
  /** The store a server with this `env` and DATA_DIR uses, opened from the test process to look into it. */
  inspect(env: Record<string, string>, dataDir: string): ObjectStore;
  /** Moves the last modification of every object stored so far `ms` into the past. */
  ageEverything(dataDir: string, ms: number): void;
  close(): Promise<void>;
}

const ageFiles = (root: string, ms: number, wanted: (file: string) => boolean): void => {
  if (!fs.existsSync(root)) return;
  const when = new Date(Date.now() - ms);
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && wanted(file)) fs.utimesSync(file, when, when);
  }
};

export async function startGcStore(name: StoreName): Promise<GcTestStore> {
  if (name === 'local') {
    return {
      name,
      env: () => ({}),
      inspect: (_env, dataDir) =>
        new LocalObjectStore({
          directory: path.join(dataDir, 'objects'),
          baseUrl: () => 'http://127.0.0.1/objects',
          signer: new ObjectUrlSigner(randomBytes(32)),
        }),
      ageEverything: (dataDir, ms) => ageFiles(path.join(dataDir, 'objects', 'data'), ms, () => true),
      close: async () => {},
    };
  }
  // s3rver keeps each object as `<key>._S3rver_object` and answers its file's mtime as LastModified.
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-gc-s3rver-'));
  const bucket = 'ferry-gc';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  let servers = 0;
  return {
    name,
    env: () => ({
      OBJECT_STORE_URL: `s3://${bucket}/ferry-${++servers}`,
      S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    }),
    inspect: (env) => {
      const [, bucketName, prefix] = /^s3:\/\/([^/]+)\/(.*)$/.exec(env.OBJECT_STORE_URL!)!;
      return new S3ObjectStore({
        bucket: bucketName!,
        prefix: prefix!,
        endpoint: env.S3_ENDPOINT,
        forcePathStyle: true,
        region: 'us-east-1',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
    },
    ageEverything: (_dataDir, ms) =>
      ageFiles(path.join(directory, bucket), ms, (file) => file.endsWith('._S3rver_object')),
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Declares a suite once per object store. */
export function describeEachStore(name: string, body: (store: StoreName) => void): void {
  for (const store of STORES) describe(`${name} {${store}}`, () => body(store));
}
