import type { ErrorBody, KnownErrorCode } from '@ferry/contracts';

/**
 * The common error body (the design's §6) for failures that are not domain errors: parser, router,
 * validation, pages that are not built. Its code is one of the error catalogue's (docs/errors.md).
 */
export const errorBody = (code: KnownErrorCode, message: string, details: Record<string, unknown> = {}): ErrorBody => ({
  error: { code, message, details },
});
