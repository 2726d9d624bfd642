import type { ErrorBody } from './errors.js';

/**
 * A failure in the terms of the common error body: a stable code clients branch on, a message for
 * people, and details. The server's domain and HTTP errors, the CLI's HTTP client and the
 * certificate API client all throw subclasses of it, so one `instanceof FerryError` and one
 * `toBody()` serve every side. Messages must never carry secrets or identity data.
 */
export class FerryError extends Error {
  override name = 'FerryError';
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/**
 * A FerryError as it crossed HTTP: the status it was (or will be) answered with. `status` 0 means
 * there was no HTTP answer at all (connection refused, DNS, aborted).
 */
export class FerryHttpError extends FerryError {
  override name = 'FerryHttpError';
  constructor(
    readonly status: number,
    code: string,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(code, message, details);
  }

  /**
   * Worth trying again: the server was unreachable, overloaded or failed on its side. Full storage
   * (507) is not: it stays full until an operator frees space.
   */
  get transient(): boolean {
    return (
      this.status === 0 || this.status === 408 || this.status === 429 || (this.status >= 500 && this.status !== 507)
    );
  }
}
