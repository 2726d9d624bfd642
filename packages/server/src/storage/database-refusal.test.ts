import { describe, expect, it } from 'vitest';
import { type ConnectionTarget, describeDatabaseRefusal } from './database-refusal.js';

const target: ConnectionTarget = {
  variable: 'DATABASE_URL',
  url: 'postgres://ferry:s3cret-pass@db.internal:6432/registry',
  poolSize: 5,
  connectTimeoutMs: 10_000,
};
const withCode = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('describeDatabaseRefusal', () => {
  it.each([
    [
      'too many clients (53300)',
      withCode('53300', 'sorry, too many clients already'),
      'PostgreSQL at db.internal:6432 (DATABASE_URL) refused the connection: too many clients ("sorry, too many clients already"); its max_connections is reached. Each Ferry instance opens at most DATABASE_POOL_SIZE + 1 connections (here 5 + 1): lower DATABASE_POOL_SIZE or run fewer instances, or raise max_connections (docs/deployment.md, "Database connections")',
    ],
    [
      'slots reserved for superusers (53300 too)',
      withCode('53300', 'remaining connection slots are reserved for roles with the SUPERUSER attribute'),
      /too many clients \("remaining connection slots are reserved.*"\); its max_connections is reached/,
    ],
    [
      'a wrong password (28P01)',
      withCode('28P01', 'password authentication failed for user "ferry"'),
      'PostgreSQL at db.internal:6432 (DATABASE_URL) refused the password of user "ferry" ("password authentication failed for user "ferry""): fix the credentials in DATABASE_URL',
    ],
    [
      'a role it does not let in (28000)',
      withCode('28000', 'no pg_hba.conf entry for host "10.0.0.7", user "ferry", database "registry", no encryption'),
      /refused user "ferry" on database "registry" \("no pg_hba\.conf entry.*"\): fix the user in DATABASE_URL, or let it connect \(the role, pg_hba\.conf\)$/,
    ],
    [
      'a database that does not exist (3D000)',
      withCode('3D000', 'database "registry" does not exist'),
      'PostgreSQL at db.internal:6432 (DATABASE_URL): the database "registry" does not exist ("database "registry" does not exist"): create it, or fix the database name in DATABASE_URL',
    ],
    [
      'a server starting up (57P03)',
      withCode('57P03', 'the database system is starting up'),
      /does not accept connections yet \("the database system is starting up"\) \(starting up, shutting down or in recovery\)/,
    ],
    [
      'nothing listening (ECONNREFUSED)',
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.9:6432'),
      'PostgreSQL at db.internal:6432 (DATABASE_URL) refused the connection: nothing listens there. Is PostgreSQL running, and are the host and port in DATABASE_URL right?',
    ],
    [
      'nothing listening on either address of localhost (AggregateError)',
      new AggregateError([withCode('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432')], 'x'),
      /refused the connection: nothing listens there/,
    ],
    [
      'a host name that does not resolve',
      withCode('ENOTFOUND', 'getaddrinfo ENOTFOUND db.internal'),
      /: the host name "db\.internal" does not resolve \("getaddrinfo ENOTFOUND db\.internal"\): fix the host in DATABASE_URL$/,
    ],
    [
      'no answer within the connect timeout (pg-pool)',
      new Error('timeout exceeded when trying to connect'),
      /did not answer within 10 s \("timeout exceeded when trying to connect"\): check the network path/,
    ],
    [
      'no route (EHOSTUNREACH)',
      withCode('EHOSTUNREACH', 'connect EHOSTUNREACH 10.0.0.9:6432'),
      /did not answer \("connect EHOSTUNREACH.*"\): check the network path/,
    ],
    [
      'a connection closed during start-up',
      new Error('Connection terminated unexpectedly'),
      'PostgreSQL at db.internal:6432 (DATABASE_URL) could not be reached ("Connection terminated unexpectedly")',
    ],
  ])('%s', (_name, error, expected) => {
    const message = describeDatabaseRefusal(error, target);
    if (typeof expected === 'string') expect(message).toBe(expected);
    else expect(message).toMatch(expected);
    // The URL's password never reaches the message (it goes to stderr and logs).
    expect(message).not.toContain('s3cret-pass');
  });

  it.each([
    ['a failed migration statement', withCode('42P07', 'relation "releases" already exists')],
    ['a unique violation', withCode('23505', 'duplicate key')],
    ['a bug', new TypeError('x is undefined')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s is not a refusal: undefined', (_name, error) => {
    expect(describeDatabaseRefusal(error, target)).toBeUndefined();
  });

  it('names the variable the URL came from, and libpq defaults where the URL has none', () => {
    const message = describeDatabaseRefusal(withCode('3D000', 'database "postgres" does not exist'), {
      ...target,
      variable: 'DATABASE_DIRECT_URL',
      url: 'postgres://db.internal',
    });
    expect(message).toMatch(
      /^PostgreSQL at db\.internal:5432 \(DATABASE_DIRECT_URL\): the database named after the user does not exist/,
    );
    expect(describeDatabaseRefusal(withCode('28P01', 'x'), { ...target, url: 'postgresql://ferry@h/d' })).toMatch(
      /^PostgreSQL at h:5432 \(DATABASE_URL\) refused the password of user "ferry"/,
    );
  });
});
