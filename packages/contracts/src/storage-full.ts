/**
 * A write the object storage refused because it is full: the local disk (ENOSPC, or a quota,
 * EDQUOT) or an S3-compatible store. Ferry answers it as 507 Insufficient Storage with the code
 * STORAGE_FULL; an S3 store answers a presigned upload itself, with its own code. The server's
 * error mapping and the CLI's upload messages both decide with this one function.
 */
export const STORAGE_FULL_STATUS = 507;

/**
 * S3 error codes that mean "no room for more bytes": MinIO when its drives reach their free-space
 * floor (XMinioStorageFull, 507) or a bucket quota (XMinioAdminBucketQuotaExceeded), Ceph RGW on a
 * user or bucket quota (QuotaExceeded), and the generic InsufficientStorage.
 */
export const S3_STORAGE_FULL_CODES: readonly string[] = [
  'XMinioStorageFull',
  'XMinioAdminBucketQuotaExceeded',
  'QuotaExceeded',
  'InsufficientStorage',
];

/** Whether an HTTP answer (its status, and the error code of its body, if any) says storage is full. */
export const isStorageFullAnswer = (status: number | undefined, code: string | undefined): boolean =>
  status === STORAGE_FULL_STATUS ||
  code === 'STORAGE_FULL' ||
  (code !== undefined && S3_STORAGE_FULL_CODES.includes(code));
