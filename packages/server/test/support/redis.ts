import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe } from 'vitest';
import { HANG_GUARD_MS } from '../../../../test/support/hang-guard.cjs';
import type { Config } from '../../src/config/config.js';

/** The Redis the shared rate-limit suites use; override with TEST_REDIS_URL. */
export const REDIS_TEST_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const quietClient = () =>
  new Redis(REDIS_TEST_URL, {
    lazyConnect: true,
    // Only a hang ends the wait (a refused connection fails at once): a slow machine must not turn a
    // reachable Redis into skipped suites (or, in CI, a failure).
    connectTimeout: HANG_GUARD_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });

async function probeRedis(): Promise<string | undefined> {
  const client = quietClient();
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    client.disconnect();
  }
}

// Like PostgreSQL (engines.ts): required in CI, skipped with a printed reason elsewhere.
const redisProblem = await probeRedis();
if (redisProblem && process.env.CI === 'true') {
  throw new Error(`Redis is required in CI but unreachable at ${REDIS_TEST_URL}: ${redisProblem}`);
}
if (redisProblem) {
  process.stderr.write(`[ferry tests] skipping Redis suites: ${REDIS_TEST_URL} unreachable (${redisProblem})\n`);
}

/** Declares a suite that needs Redis: it fails in CI when Redis is unreachable and is skipped elsewhere. */
export function describeWithRedis(name: string, body: () => void): void {
  (redisProblem === undefined ? describe : describe.skip)(`${name} [redis]`, body);
}

/** A key prefix of its own, so suites running at once never count each other's requests. */
export const uniqueKeyPrefix = (): string => `ferry-rl-test:${process.pid}:${randomBytes(4).toString('hex')}:`;

/** Points a server's shared rate limits at the test Redis under `keyPrefix`. */
export const sharedRateLimits =
  (keyPrefix: string, url: string = REDIS_TEST_URL) =>
  (config: Config): Config => ({
    ...config,
    // A loaded machine may answer slowly; only a hang should let a request pass uncounted here.
    limits: { ...config.limits, redis: { url, keyPrefix, commandTimeoutMs: HANG_GUARD_MS } },
  });

/** The keys under a prefix. */
export async function keysUnder(prefix: string): Promise<string[]> {
  const client = quietClient();
  await client.connect();
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    return keys;
  } finally {
    client.disconnect();
  }
}

/** Removes every key under a prefix (a suite's clean-up). */
export async function deleteKeysUnder(prefix: string): Promise<void> {
  const keys = await keysUnder(prefix);
  if (keys.length === 0) return;
  const client = quietClient();
  await client.connect();
  try {
    await client.del(...keys);
  } finally {
    client.disconnect();
  }
}
