import type { Readable } from 'node:stream';

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
  head(key: string): Promise<StoredObject | undefined>;
  /** Opens an object for reading; undefined when it does not exist. */
  get(key: string): Promise<(StoredObject & { body: Readable }) | undefined>;
  delete(key: string): Promise<void>;
  /** A URL anyone can GET until it expires (private objects such as certificate PDFs). */
  signedGetUrl(key: string, ttlSeconds: number): Promise<string>;
  /** A URL and headers to PUT the object directly (the publisher's asset uploads). */
  signedPutUrl(key: string, options: SignedPutOptions): Promise<SignedRequest>;
}
