import { isStorageFullAnswer, S3_STORAGE_FULL_CODES } from '@ferry/contracts';
import { DomainError } from '../../errors/domain-error.js';

/** errno codes of a local write that found no room: the disk is full, or the user's quota is. */
const LOCAL_STORAGE_FULL = new Set(['ENOSPC', 'EDQUOT']);

/**
 * Why a failed write is "storage full", or undefined when it is anything else: the errno code of a
 * local write (ENOSPC, EDQUOT), or the S3 error code (or 507 status) the AWS SDK surfaced from an
 * S3-compatible store (S3_STORAGE_FULL_CODES in the contracts). Pure: the table test covers it.
 */
export function storageFullCause(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, name, $metadata } = error as {
    code?: unknown;
    name?: unknown;
    $metadata?: { httpStatusCode?: unknown };
  };
  if (typeof code === 'string' && LOCAL_STORAGE_FULL.has(code)) return code;
  const status = typeof $metadata?.httpStatusCode === 'number' ? $metadata.httpStatusCode : undefined;
  // The SDK names an S3 error after the <Code> of its answer.
  const s3Code = typeof name === 'string' ? name : undefined;
  if ($metadata === undefined || !isStorageFullAnswer(status, s3Code)) return undefined;
  return s3Code !== undefined && S3_STORAGE_FULL_CODES.includes(s3Code) ? s3Code : `HTTP ${status}`;
}

/**
 * A write the object storage refused for lack of room. Nothing was stored (the local writer removes
 * its temporary files; S3 keeps nothing of a refused PUT); the same request succeeds once an
 * operator frees space. Answered 507 STORAGE_FULL and logged as one line (error-handler.ts).
 */
export class StorageFull extends DomainError {
  override name = 'StorageFull';
  constructor(
    readonly store: 'local' | 's3',
    /** ENOSPC, EDQUOT, or the S3 code: for the log line, never the answer. */
    readonly reason: string,
  ) {
    super(
      'storage-full',
      'STORAGE_FULL',
      'The object storage is full: nothing was stored. An operator must free space (or raise the quota); then send the same request again.',
      {},
    );
  }
}

/** The error to throw for a failed write: StorageFull when the storage was full, else the error itself. */
export function asStorageFull(error: unknown, store: 'local' | 's3'): unknown {
  if (error instanceof StorageFull) return error;
  const reason = storageFullCause(error);
  return reason === undefined ? error : new StorageFull(store, reason);
}

/** The log line of a write refused for lack of room (with `store` and `reason` beside it). */
export const storageFullLine =
  'object storage is full: a write was refused and nothing was stored; free space or raise the quota';
