import type { Readable } from 'node:stream';
import { LocalObjectFiles } from './local-object-files.js';
import { listLocalObjects, removeEmptyFolders } from './local-object-listing.js';
import { LocalObjectReader } from './local-object-reader.js';
import { LocalObjectWriter } from './local-object-writer.js';
import { objectKeyToUrlPath, validateObjectKey } from './object-key.js';
import type {
  ListedObject,
  ObjectStore,
  PutStreamOptions,
  SignedPutOptions,
  SignedRequest,
  StoredObject,
} from './object-store.js';
import type { ObjectUrlSigner } from './object-url-signer.js';
import { asStorageFull } from './storage-full.js';

const rethrowStorageFull = (error: unknown): never => {
  throw asStorageFull(error, 'local');
};

export interface LocalObjectStoreOptions {
  /** The store's root, normally DATA_DIR/objects. */
  directory: string;
  /** Base of the URLs this server serves objects under (PUBLIC_URL + /objects), read per call. */
  baseUrl: () => string;
  signer: ObjectUrlSigner;
}

/**
 * Local files under DATA_DIR/objects (layout: local-object-files.ts), served and uploaded through
 * this server's /objects URLs, which it signs itself.
 */
export class LocalObjectStore implements ObjectStore {
  readonly files: LocalObjectFiles;
  private readonly reader: LocalObjectReader;
  private readonly writer: LocalObjectWriter;

  constructor(private readonly options: LocalObjectStoreOptions) {
    this.files = new LocalObjectFiles(options.directory);
    this.reader = new LocalObjectReader(this.files);
    this.writer = new LocalObjectWriter(this.files);
  }

  head(key: string): Promise<StoredObject | undefined> {
    return this.reader.head(key);
  }

  get(key: string): Promise<(StoredObject & { body: Readable }) | undefined> {
    return this.reader.get(key);
  }

  read(key: string): Promise<(StoredObject & { bytes: Buffer }) | undefined> {
    return this.reader.read(key);
  }

  // A full disk (or quota) is StorageFull; the writer has removed its temporary files by then.
  put(key: string, body: Buffer, meta: { contentType: string }): Promise<void> {
    return this.writer.put(key, body, meta).catch(rethrowStorageFull);
  }

  putStream(key: string, body: Readable, options: PutStreamOptions): Promise<{ created: boolean }> {
    return this.writer.putStream(key, body, options).catch(rethrowStorageFull);
  }

  /** Removes the object and its meta file, then the folders that left empty (garbage collection empties many). */
  async delete(key: string): Promise<void> {
    await this.writer.delete(key);
    await Promise.all([
      removeEmptyFolders(this.files.dataRoot, this.files.dataPath(key)),
      removeEmptyFolders(this.files.metaRoot, this.files.metaPath(key)),
    ]);
  }

  list(prefix: string): AsyncIterable<ListedObject> {
    return listLocalObjects(this.files, prefix);
  }

  async signedGetUrl(key: string, ttlSeconds: number): Promise<string> {
    const grant = {
      method: 'GET' as const,
      key: validateObjectKey(key),
      expires: this.options.signer.expiresIn(ttlSeconds),
    };
    return `${this.urlOf(key)}?${this.options.signer.toQuery(grant)}`;
  }

  async signedPutUrl(key: string, options: SignedPutOptions): Promise<SignedRequest> {
    const grant = {
      method: 'PUT' as const,
      key: validateObjectKey(key),
      expires: this.options.signer.expiresIn(options.ttlSeconds),
      contentType: options.contentType,
      sha256: options.sha256Base64Url,
      size: options.size,
    };
    return {
      url: `${this.urlOf(key)}?${this.options.signer.toQuery(grant)}`,
      headers: { 'content-type': options.contentType },
    };
  }

  /** The unsigned URL of a key; public for update assets only. */
  urlOf(key: string): string {
    return `${this.options.baseUrl()}/${objectKeyToUrlPath(key)}`;
  }
}
