import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import { brotliOptions } from './brotli-options.js';
import { validateObjectKey } from './object-key.js';
import type { ObjectStore, StoredObject } from './object-store.js';
import { StorageFull } from './storage-full.js';

export type CompressedEncoding = 'br' | 'gzip';
export const COMPRESSED_ENCODINGS: readonly CompressedEncoding[] = ['br', 'gzip'];

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Already-compressed formats gain nothing from another pass. */
const INCOMPRESSIBLE =
  /^(image\/(?!svg)|video\/|audio\/|font\/woff2?|application\/(zip|gzip|x-gzip|zstd|x-7z-compressed|x-rar|x-bzip2|pdf|wasm))/i;
const MIN_COMPRESSIBLE_BYTES = 1024;
/** Sources above this are served as they are rather than read whole into memory to compress. */
const MAX_COMPRESSIBLE_BYTES = 64 * 1024 * 1024;
/** A background attempt (asked for by serving) is not repeated for this long after it ran. */
const RETRY_AFTER_MS = 60_000;
/**
 * Assets compressed at once. zlib runs on libuv's thread pool, off the event loop; one at a time
 * leaves the pool's other threads to the file reads that serve devices meanwhile.
 */
export const COMPRESSION_CONCURRENCY = 1;

export const isCompressible = (object: Pick<StoredObject, 'contentType' | 'size'>): boolean =>
  object.size >= MIN_COMPRESSIBLE_BYTES &&
  object.size <= MAX_COMPRESSIBLE_BYTES &&
  !INCOMPRESSIBLE.test(object.contentType);

const etagToken = (etag: string): string => etag.replace(/^W\//, '').replace(/[^A-Za-z0-9_-]/g, '') || 'x';

/** Where the compressed form of an object is stored: beside it, named by the source's ETag. */
export const encodedKey = (key: string, source: Pick<StoredObject, 'etag'>, encoding: CompressedEncoding): string =>
  validateObjectKey(`encoded/${encoding}/${etagToken(source.etag)}/${key}`);

export function compress(body: Buffer, encoding: CompressedEncoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzip(body, { level: 9 });
  return brotli(body, brotliOptions(body.length));
}

/**
 * The brotli and gzip forms of update assets, made once when an asset arrives (its upload, or the
 * publish that names it) and stored beside it in the object store, so every instance serves them
 * and none compresses while a device waits. Serving only looks them up (`find`).
 */
export class AssetEncodings {
  private readonly preparing = new Map<string, Promise<void>>();
  private readonly limit = pLimit(COMPRESSION_CONCURRENCY);
  private readonly attempted = new LRUCache<string, true>({ max: 10_000, ttl: RETRY_AFTER_MS });

  private storageFullLoggedAt = Number.NEGATIVE_INFINITY;
  private skippedForRoom = 0;

  constructor(
    private readonly store: ObjectStore,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Makes whichever compressed forms of a stored asset are missing. Several callers for one key
   * share one run; a missing source or an incompressible one is nothing to do. A failure is logged
   * and swallowed: devices then get the identity form, which is always correct.
   */
  prepare(key: string): Promise<void> {
    const pending = this.preparing.get(key);
    if (pending) return pending;
    const work = this.limit(() => this.make(key))
      .catch((error: unknown) => {
        if (error instanceof StorageFull) {
          this.storageFull(error);
          return;
        }
        this.log.warn(
          { err: error, key },
          'could not store the compressed forms of an asset; it is served uncompressed',
        );
      })
      .finally(() => this.preparing.delete(key));
    this.preparing.set(key, work);
    return work;
  }

  /**
   * What serving asks for when a form is missing: a background `prepare`, at most once a minute
   * per asset, so an asset whose compression keeps failing is not compressed on every request.
   */
  prepareLater(key: string): void {
    if (this.attempted.has(key)) return;
    this.attempted.set(key, true);
    void this.prepare(key);
  }

  /**
   * A full store: the asset itself is stored (its upload or publish succeeds) and served as it is,
   * so this is one warning, not one per asset: at most one line a minute, with how many were skipped.
   */
  private storageFull(error: StorageFull): void {
    this.skippedForRoom++;
    const now = this.now();
    if (now - this.storageFullLoggedAt < RETRY_AFTER_MS) return;
    this.storageFullLoggedAt = now;
    this.log.warn(
      { store: error.store, reason: error.reason, assets: this.skippedForRoom },
      'object storage is full: compressed forms of assets were not stored; they are served uncompressed',
    );
    this.skippedForRoom = 0;
  }

  /** The stored form of `source` in `encoding`, or undefined when it is not made (yet). Never compresses. */
  find(key: string, source: StoredObject, encoding: CompressedEncoding): Promise<StoredObject | undefined> {
    return this.store.head(encodedKey(key, source, encoding));
  }

  private async make(key: string): Promise<void> {
    const source = await this.store.head(key);
    if (!source || !isCompressible(source)) return;
    const missing: CompressedEncoding[] = [];
    for (const encoding of COMPRESSED_ENCODINGS) {
      if (!(await this.find(key, source, encoding))) missing.push(encoding);
    }
    if (missing.length === 0) return;
    const opened = await this.store.read(key);
    if (!opened || opened.etag !== source.etag) return;
    for (const encoding of missing) {
      await this.store.put(encodedKey(key, source, encoding), await compress(opened.bytes, encoding), {
        contentType: source.contentType,
      });
    }
  }
}
