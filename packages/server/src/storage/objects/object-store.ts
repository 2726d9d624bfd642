import type { Readable } from 'node:stream';
import { DomainError } from '../../errors/domain-error.js';

export interface StoredObject {
  key: string;
  size: number;
  contentType: string;
  /** Strong validator of the content (quoted, as in an ETag header). */
  etag: string;
}

/** Options of a direct upload URL; each given constraint is enforced on the upload. */
export interface SignedPutOptions {
  contentType: string;
  ttlSeconds: number;
  /** Unpadded base64url SHA-256 the uploaded bytes must have. */
  sha256Base64Url?: string;
  /** Exact byte count of the upload. */
  size?: number;
}

/** Constraints of a streamed write; each one that is set is checked before anything is stored. */
export interface PutStreamOptions {
  contentType: string;
  /** Unpadded base64url SHA-256 the bytes must have. */
  sha256?: string;
  /** Exact byte count the bytes must have. */
  size?: number;
  /** Reading stops as soon as the bytes exceed this many: the rest of the body is never read. */
  maxBytes: number;
}

/** A streamed write that broke one of its constraints; nothing was stored. */
export class UploadRejected extends DomainError {
  override name = 'UploadRejected';
  constructor(
    readonly reason: 'hash-mismatch' | 'size-mismatch' | 'too-large',
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(
      reason === 'too-large' ? 'too-large' : 'invalid',
      (
        {
          'too-large': 'PAYLOAD_TOO_LARGE',
          'hash-mismatch': 'HASH_MISMATCH',
          'size-mismatch': 'SIZE_MISMATCH',
        } as const
      )[reason],
      `${message}; nothing was stored.`,
      details,
    );
  }
}

/** An object as a listing sees it. */
export interface ListedObject {
  key: string;
  size: number;
  /** When the bytes at this key were last written (S3 LastModified, the file's mtime locally). */
  lastModified: Date;
}

export interface SignedRequest {
  url: string;
  /** Headers the client must send with the request for the signature to hold. */
  headers: Record<string, string>;
}

/**
 * The ObjectStore port: two adapters (local files under DATA_DIR, S3) behind one contract suite.
 * Keys are relative, slash-separated, and validated by every adapter (no `..`, no absolute paths,
 * no empty segments, no backslashes or control characters; see object-key.ts). An invalid key
 * makes every method throw InvalidObjectKeyError.
 */
export interface ObjectStore {
  /** Writes an object. Writing identical content to an existing key changes nothing. */
  put(key: string, body: Buffer, meta: { contentType: string }): Promise<void>;
  /**
   * Writes an object from a stream (an upload through this server), checking its constraints on
   * the way so a large body is never held in memory. `created` is false when the same bytes were
   * already stored. Throws UploadRejected when a constraint fails.
   */
  putStream(key: string, body: Readable, options: PutStreamOptions): Promise<{ created: boolean }>;
  head(key: string): Promise<StoredObject | undefined>;
  /** Opens an object for reading; undefined when it does not exist. */
  get(key: string): Promise<(StoredObject & { body: Readable }) | undefined>;
  /**
   * The whole object in one buffer, for objects a caller keeps in memory or processes whole (an
   * asset served from memory, compressed at upload); undefined when it does not exist. The bytes
   * are read into that buffer, not gathered from a stream's chunks and copied.
   */
  read(key: string): Promise<(StoredObject & { bytes: Buffer }) | undefined>;
  /** Removes an object; deleting a key that holds nothing is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every object whose key starts with `prefix` (a plain string prefix, as S3 means it: `updates/`
   * lists everything under that folder), read a page at a time as the iteration goes, in no
   * particular order. An object written or deleted while the listing runs may or may not be seen.
   */
  list(prefix: string): AsyncIterable<ListedObject>;
  /** A URL anyone can GET until it expires (private objects such as certificate PDFs). */
  signedGetUrl(key: string, ttlSeconds: number): Promise<string>;
  /** A URL and headers to PUT the object directly (the publisher's asset uploads). */
  signedPutUrl(key: string, options: SignedPutOptions): Promise<SignedRequest>;
}
