import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Location } from '../../config/object-store-config.js';
import { isValidObjectKey, validateObjectKey, validateObjectKeyPrefix } from './object-key.js';
import {
  type ListedObject,
  type ObjectStore,
  type PutStreamOptions,
  type SignedPutOptions,
  type SignedRequest,
  type StoredObject,
  UploadRejected,
} from './object-store.js';
import { MAX_SIGNED_URL_TTL_SECONDS } from './object-url-signer.js';
import { asStorageFull } from './storage-full.js';

const isNotFound = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.$metadata?.httpStatusCode === 404 || e?.name === 'NotFound' || e?.name === 'NoSuchKey';
};

/** What a HeadObject or GetObject response says of the object. */
const storedObjectOf = (
  key: string,
  out: { ContentLength?: number; ContentType?: string; ETag?: string },
): StoredObject => ({
  key,
  size: out.ContentLength ?? 0,
  contentType: out.ContentType ?? 'application/octet-stream',
  etag: out.ETag ?? '""',
});

const clampTtl = (ttlSeconds: number) => Math.min(Math.max(Math.floor(ttlSeconds), 1), MAX_SIGNED_URL_TTL_SECONDS);

/** Base64url (unpadded, as update hashes are written) to the standard base64 S3 checksums use. */
export const base64UrlToBase64 = (value: string): string => {
  const standard = value.replaceAll('-', '+').replaceAll('_', '/');
  return standard + '='.repeat((4 - (standard.length % 4)) % 4);
};

/** The client every S3 call goes through; checksums only when S3 requires them (see docs/ota.md). */
export function createS3Client(location: S3Location, overrides: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({
    region: location.region,
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    forcePathStyle: location.forcePathStyle,
    ...(location.credentials ? { credentials: location.credentials } : {}),
    // Default checksums frame streamed bodies as aws-chunked, which some S3-compatible servers store verbatim.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...overrides,
  });
}

/**
 * S3 (or any S3-compatible server) under `OBJECT_STORE_URL=s3://bucket/prefix`. Direct uploads use
 * presigned PUTs whose signature covers the content type, the length and the SHA-256 checksum, so
 * S3 itself refuses bytes that do not match the asset's hash.
 */
export class S3ObjectStore implements ObjectStore {
  readonly client: S3Client;

  private readonly now: () => Date;
  private readonly listPageSize: number;

  constructor(
    private readonly location: S3Location,
    /** `listPageSize`: keys per ListObjectsV2 page (S3's maximum and default, 1000; tests page smaller). */
    options: { client?: S3Client; now?: () => Date; listPageSize?: number } = {},
  ) {
    this.client = options.client ?? createS3Client(location);
    this.now = options.now ?? (() => new Date());
    this.listPageSize = options.listPageSize ?? 1000;
  }

  /** The bucket key of an object key: the configured prefix, then the validated key. */
  bucketKey(key: string): string {
    validateObjectKey(key);
    return this.location.prefix ? `${this.location.prefix}/${key}` : key;
  }

  async head(key: string): Promise<StoredObject | undefined> {
    try {
      const out = await this.client.send(
        new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.bucketKey(key) }),
      );
      return storedObjectOf(key, out);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async get(key: string): Promise<(StoredObject & { body: Readable }) | undefined> {
    const out = await this.getObject(key);
    if (!out) return undefined;
    return { ...storedObjectOf(key, out), body: out.Body instanceof Readable ? out.Body : Readable.from([]) };
  }

  async read(key: string): Promise<(StoredObject & { bytes: Buffer }) | undefined> {
    const out = await this.getObject(key);
    if (!out) return undefined;
    // The SDK's own collector: the response's chunks into one array.
    const array = (await out.Body?.transformToByteArray()) ?? new Uint8Array();
    const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
    return { ...storedObjectOf(key, out), size: bytes.length, bytes };
  }

  /** The GetObject response, or undefined when the object does not exist. */
  private async getObject(key: string): Promise<GetObjectCommandOutput | undefined> {
    try {
      return await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.bucketKey(key) }));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async put(key: string, body: Buffer, meta: { contentType: string }): Promise<void> {
    // A single-part upload's ETag is the MD5 of its bytes: identical content is not sent again.
    const md5 = createHash('md5').update(body).digest('hex');
    const existing = await this.head(key);
    if (existing && existing.size === body.length && existing.etag === `"${md5}"`) return;
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.location.bucket,
          Key: this.bucketKey(key),
          Body: body,
          ContentType: meta.contentType,
          ContentLength: body.length,
          ContentMD5: createHash('md5').update(body).digest('base64'),
        }),
      );
    } catch (error) {
      // A store out of room (MinIO's drives, a bucket quota) refuses the PUT and keeps nothing.
      throw asStorageFull(error, 's3');
    }
  }

  /**
   * Uploads through this server never target S3 (devices and the publisher PUT to presigned URLs,
   * where S3 checks the checksum itself), so this path exists for the port's sake and buffers: it
   * reads at most `maxBytes`, checks size and hash, then writes as put() does.
   */
  async putStream(key: string, body: Readable, options: PutStreamOptions): Promise<{ created: boolean }> {
    this.bucketKey(key);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > options.maxBytes) {
        body.destroy();
        throw new UploadRejected('too-large', `The upload is larger than ${options.maxBytes} bytes`, {
          limit: options.maxBytes,
        });
      }
      chunks.push(chunk as Buffer);
    }
    const bytes = Buffer.concat(chunks);
    if (options.size !== undefined && bytes.length !== options.size) {
      throw new UploadRejected('size-mismatch', `The upload has ${bytes.length} bytes, ${options.size} were announced`);
    }
    if (options.sha256 !== undefined && createHash('sha256').update(bytes).digest('base64url') !== options.sha256) {
      throw new UploadRejected('hash-mismatch', 'The SHA-256 of the upload does not match the expected hash');
    }
    const existed = (await this.head(key)) !== undefined;
    await this.put(key, bytes, { contentType: options.contentType });
    return { created: !existed };
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.bucketKey(key) }));
  }

  /**
   * ListObjectsV2, a page at a time as the iteration asks for more. Keys outside the configured
   * prefix or not valid as object keys (written by something else) are skipped; an object whose
   * last modification S3 does not state is reported as written now, so nothing treats it as old.
   */
  async *list(prefix: string): AsyncGenerator<ListedObject> {
    validateObjectKeyPrefix(prefix);
    const base = this.location.prefix ? `${this.location.prefix}/` : '';
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.location.bucket,
          Prefix: base + prefix,
          MaxKeys: this.listPageSize,
          ContinuationToken: continuationToken,
        }),
      );
      for (const item of page.Contents ?? []) {
        const key = item.Key?.startsWith(base) ? item.Key.slice(base.length) : undefined;
        if (key === undefined || !key.startsWith(prefix) || !isValidObjectKey(key)) continue;
        yield { key, size: item.Size ?? 0, lastModified: item.LastModified ?? this.now() };
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  async signedGetUrl(key: string, ttlSeconds: number): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.location.bucket, Key: this.bucketKey(key) }), {
      expiresIn: clampTtl(ttlSeconds),
      signingDate: this.now(),
    });
  }

  async signedPutUrl(key: string, options: SignedPutOptions): Promise<SignedRequest> {
    const checksum = options.sha256Base64Url ? base64UrlToBase64(options.sha256Base64Url) : undefined;
    const command = new PutObjectCommand({
      Bucket: this.location.bucket,
      Key: this.bucketKey(key),
      ContentType: options.contentType,
      ...(options.size !== undefined ? { ContentLength: options.size } : {}),
      ...(checksum ? { ChecksumSHA256: checksum } : {}),
    });
    const signed = ['content-type', ...(options.size !== undefined ? ['content-length'] : [])];
    const url = await getSignedUrl(this.client, command, {
      expiresIn: clampTtl(options.ttlSeconds),
      signingDate: this.now(),
      signableHeaders: new Set(signed),
      // Kept as a signed header (not hoisted into the query) so S3 verifies the body against it.
      unhoistableHeaders: new Set(['x-amz-checksum-sha256']),
    });
    return {
      url,
      headers: {
        'content-type': options.contentType,
        ...(checksum ? { 'x-amz-checksum-sha256': checksum } : {}),
      },
    };
  }
}
