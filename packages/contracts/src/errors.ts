import { z } from 'zod';

/** Stable error codes; clients branch on these, so never rename one. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'NOT_ACCEPTABLE',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'RATE_LIMITED',
  'NATIVE_FINGERPRINT_CHANGED',
  'NO_EARLIER_RELEASE',
  'ALREADY_ACTIVE',
  'INTERNAL',
  'UNAVAILABLE',
  'STORAGE_FULL',
] as const;
export type KnownErrorCode = (typeof ERROR_CODES)[number];

/** Codes are UPPER_SNAKE; later features add their own (UNSUPPORTED_PROVIDER, AUTH_PENDING, …). */
export const ErrorCode = z.string().regex(/^[A-Z][A-Z0-9_]*$/);

export const ErrorBody = z.object({
  error: z.object({
    code: ErrorCode,
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** One failing field, as listed in details.fields of a VALIDATION_FAILED body. */
export interface FieldIssue {
  path: string;
  message: string;
}
