import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED'), true],
    ['connection reset', withCode('ECONNRESET'), true],
    ['connect timeout', withCode('ETIMEDOUT'), true],
    ['broken pipe', withCode('EPIPE'), true],
    ['host not found', withCode('ENOTFOUND'), true],
    ['connection exception class 08', withCode('08006'), true],
    ['admin shutdown', withCode('57P01'), true],
    ['crash shutdown', withCode('57P02'), true],
    ['cannot connect now (starting up)', withCode('57P03'), true],
    ['too many connections', withCode('53300'), true],
    ['connection lost mid-query (pg, message only)', new Error('Connection terminated unexpectedly'), true],
    ['pool connect timeout (pg, message only)', new Error('timeout exceeded when trying to connect'), true],
    ['cause chain', new Error('query failed', { cause: withCode('ECONNREFUSED') }), true],
    ['happy-eyeballs AggregateError', new AggregateError([withCode('ECONNREFUSED')]), true],
    ['unique violation', withCode('23505'), false],
    ['syntax error', withCode('42601'), false],
    ['NUL in text (a bad request, not an outage)', withCode('22021'), false],
    ['plain bug', new TypeError('x is undefined'), false],
    ['not an error', 'ECONNREFUSED', false],
  ])('%s → %s', (_name, error, expected) => {
    expect(isDatabaseUnavailable(error)).toBe(expected);
  });
});
