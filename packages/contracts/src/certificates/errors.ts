/** Error codes of the certificate endpoints (decisions §5); clients branch on them, never rename one. */
export const CERTIFICATE_ERROR_CODES = [
  'UNSUPPORTED_PROVIDER',
  'AUTH_PENDING',
  'AUTH_EXPIRED',
  'AUTH_STATE_INVALID',
  'VENDOR_REJECTED',
  'VENDOR_ERROR',
  'VENDOR_TIMEOUT',
  'VENDOR_MISMATCH',
  'ASSIGNMENT_NOT_FOUND',
  'NOT_CERTIFIED',
] as const;
export type CertificateErrorCode = (typeof CERTIFICATE_ERROR_CODES)[number];

/** HTTP status of each certificate error code. */
export const CERTIFICATE_ERROR_STATUS = {
  UNSUPPORTED_PROVIDER: 400,
  VENDOR_MISMATCH: 400,
  NOT_CERTIFIED: 403,
  AUTH_STATE_INVALID: 403,
  ASSIGNMENT_NOT_FOUND: 404,
  AUTH_PENDING: 409,
  AUTH_EXPIRED: 410,
  VENDOR_REJECTED: 422,
  VENDOR_ERROR: 502,
  VENDOR_TIMEOUT: 504,
} as const satisfies Record<CertificateErrorCode, number>;
