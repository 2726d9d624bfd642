/** Node socket errors that mean "the server is not there (now)". */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);

/**
 * Whether an error means the database cannot be reached right now (rather than a bug or a bad
 * query): a refused or dropped connection, a server shutting down or starting up. Those requests
 * answer 503 with Retry-After; the pool reconnects on its own once the server is back.
 * SQLSTATE classes: 08 connection exception, 57P01–57P03 admin/crash shutdown and "cannot connect
 * now", 53300 too many connections.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') {
      return true;
    }
  }
  // pg reports a connection lost mid-query, and a pool that cannot connect, by message only.
  if (
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
      error.message,
    )
  ) {
    return true;
  }
  // AggregateError (happy-eyeballs connects) and errors wrapped with a cause.
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return error.cause !== undefined && error.cause !== error && isDatabaseUnavailable(error.cause);
}
