import type { ErrorBody } from '@ferry/contracts';

/**
 * A failure with a known HTTP meaning. Services throw these; the error handler turns them into the
 * error body of decisions.md §6. Messages are for people and must never carry secrets or identity data.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

export const errorBody = (code: string, message: string, details: Record<string, unknown> = {}): ErrorBody => ({
  error: { code, message, details },
});
