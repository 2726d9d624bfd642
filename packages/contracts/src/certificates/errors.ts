import { ERROR_CATALOGUE, type KnownErrorCode } from '../error-catalogue.js';

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
] as const satisfies readonly KnownErrorCode[];
export type CertificateErrorCode = (typeof CERTIFICATE_ERROR_CODES)[number];

/** HTTP status of each certificate error code, as the error catalogue gives it. */
export const CERTIFICATE_ERROR_STATUS = Object.fromEntries(
  CERTIFICATE_ERROR_CODES.map((code) => [code, ERROR_CATALOGUE[code].status]),
) as { readonly [Code in CertificateErrorCode]: (typeof ERROR_CATALOGUE)[Code]['status'] };
