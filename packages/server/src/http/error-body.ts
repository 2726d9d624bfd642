import type { ErrorBody } from '@ferry/contracts';

/** The common error body (decisions.md §6) for failures that are not domain errors: parser, router, validation. */
export const errorBody = (code: string, message: string, details: Record<string, unknown> = {}): ErrorBody => ({
  error: { code, message, details },
});
