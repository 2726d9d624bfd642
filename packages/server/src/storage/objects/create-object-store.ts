import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ObjectsConfig } from '../../config/object-store-config.js';
import { LocalObjectStore } from './local-object-store.js';
import type { ObjectStore } from './object-store.js';
import { ObjectUrlSigner } from './object-url-signer.js';

export interface ObjectStorage {
  store: ObjectStore;
  /** Signs and checks the /objects URLs this server hands out. */
  urlSigner: ObjectUrlSigner;
  /** Set when objects are local files: the server itself accepts their uploads. */
  local: LocalObjectStore | undefined;
}

/**
 * Picks the adapter the configuration asks for. The S3 adapter (and the AWS SDK behind it) is
 * loaded only when S3 is configured: it is the largest import of the server's start-up.
 */
export async function createObjectStorage(
  config: ObjectsConfig,
  deps: { objectsBaseUrl: () => string; log: FastifyBaseLogger; now?: () => Date },
): Promise<ObjectStorage> {
  const store = config.store;
  let secret = store.kind === 'local' ? store.urlSecret : undefined;
  if (!secret) {
    // Only reachable outside production (config refuses a local store without a secret there):
    // signed URLs then live as long as this process.
    secret = randomBytes(32);
    if (store.kind === 'local') deps.log.warn('no OBJECT_URL_SIGNING_SECRET: signed object URLs end with this process');
  }
  const urlSigner = new ObjectUrlSigner(secret, deps.now);
  if (store.kind === 's3') {
    const { S3ObjectStore } = await import('./s3-object-store.js');
    return { store: new S3ObjectStore(store.s3, { now: deps.now }), urlSigner, local: undefined };
  }
  const local = new LocalObjectStore({ directory: store.directory, baseUrl: deps.objectsBaseUrl, signer: urlSigner });
  return { store: local, urlSigner, local };
}
