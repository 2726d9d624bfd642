/** A failed call to the Ferry server, carrying the error body's code so callers can branch on it. */
export class FerryHttpError extends Error {
  override name = 'FerryHttpError';
  constructor(
    /** HTTP status; 0 when the server could not be reached at all. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** Worth trying again: the server was unreachable, overloaded or failed on its side. */
  get transient(): boolean {
    return this.status === 0 || this.status === 408 || this.status === 429 || this.status >= 500;
  }
}
