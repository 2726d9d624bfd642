import { isDatabaseUnavailable } from './database-unavailable.js';

/** What start-up was connecting to when PostgreSQL refused: named in the message, never its password. */
export interface ConnectionTarget {
  /** The variable the URL came from, so the operator knows what to fix. */
  variable: 'DATABASE_URL' | 'DATABASE_DIRECT_URL';
  url: string;
  /** DATABASE_POOL_SIZE in effect: an instance opens at most this many plus one (LISTEN). */
  poolSize: number;
  /** How long a connection attempt waits before it gives up. */
  connectTimeoutMs: number;
}

const codeOf = (error: unknown): string | undefined => {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) return error.errors.map(codeOf).find((each) => each !== undefined);
  return error.cause !== undefined && error.cause !== error ? codeOf(error.cause) : undefined;
};

/** Host, port, database and user of a postgres:// URL (libpq's defaults where absent); never the password. */
function describeUrl(url: string): { where: string; host: string; database: string; user: string } {
  try {
    const parsed = new URL(url);
    const host = decodeURIComponent(parsed.hostname) || 'localhost';
    const user = decodeURIComponent(parsed.username);
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || user;
    return {
      where: `${host}:${parsed.port || '5432'}`,
      host,
      database: database ? `"${database}"` : 'named after the user',
      user: user ? `"${user}"` : '(the current user)',
    };
  } catch {
    return { where: 'the configured address', host: 'of the URL', database: 'named in the URL', user: '(of the URL)' };
  }
}

/**
 * Why PostgreSQL refused a connection at start-up, and what to do, as one line for the operator; or
 * undefined when the error is not a refused or failed connection (a failed migration keeps its own
 * message). Each SQLSTATE or socket error start-up meets has its sentence: too many clients
 * (53300), a refused password or role (28P01, 28000), a missing database (3D000), a server not
 * accepting connections yet (57P03), nothing listening, a name that does not resolve, no answer.
 */
export function describeDatabaseRefusal(error: unknown, target: ConnectionTarget): string | undefined {
  if (!isDatabaseUnavailable(error) && !['28P01', '28000', '3D000'].includes(codeOf(error) ?? '')) return undefined;
  const { where, host, database, user } = describeUrl(target.url);
  const said = error instanceof Error && error.message ? ` ("${error.message}")` : '';
  const at = `PostgreSQL at ${where} (${target.variable})`;
  switch (codeOf(error)) {
    case '53300':
      return (
        `${at} refused the connection: too many clients${said}; its max_connections is reached. ` +
        `Each Ferry instance opens at most DATABASE_POOL_SIZE + 1 connections (here ${target.poolSize} + 1): ` +
        'lower DATABASE_POOL_SIZE or run fewer instances, or raise max_connections ' +
        '(docs/deployment.md, "Database connections")'
      );
    case '28P01':
      return `${at} refused the password of user ${user}${said}: fix the credentials in ${target.variable}`;
    case '28000':
      return (
        `${at} refused user ${user} on database ${database}${said}: fix the user in ${target.variable}, ` +
        'or let it connect (the role, pg_hba.conf)'
      );
    case '3D000':
      return `${at}: the database ${database} does not exist${said}: create it, or fix the database name in ${target.variable}`;
    case '57P03':
      return `${at} does not accept connections yet${said} (starting up, shutting down or in recovery): start Ferry again once it does`;
    case 'ECONNREFUSED':
      return `${at} refused the connection: nothing listens there. Is PostgreSQL running, and are the host and port in ${target.variable} right?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${at}: the host name "${host}" does not resolve${said}: fix the host in ${target.variable}`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return `${at} did not answer${said}: check the network path to it and the host in ${target.variable}`;
    default:
      if (error instanceof Error && /timeout/i.test(error.message)) {
        return `${at} did not answer within ${target.connectTimeoutMs / 1000} s${said}: check the network path to it and the host in ${target.variable}`;
      }
      return `${at} could not be reached${said}`;
  }
}
