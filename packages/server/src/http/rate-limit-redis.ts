import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** While Redis stays unreachable, the warning is repeated at most this often. */
const WARNING_INTERVAL_MS = 60_000;

export interface RateLimitRedis {
  /** Given to @fastify/rate-limit as its `redis` option. */
  client: Redis;
  close(): Promise<void>;
}

/**
 * The ioredis client behind shared rate limits (REDIS_URL). Tuned to fail fast, because the rate
 * limiter fails open (skipOnError, decisions.md): while Redis is unreachable a command fails at once
 * instead of waiting in ioredis' offline queue, a stalled Redis costs a request at most
 * `commandTimeout`, and the client keeps reconnecting in the background. Start-up does not wait for
 * an unreachable Redis. A warning names the outage (never the URL, which may hold a password), is
 * repeated at most once a minute, and recovery is logged.
 */
export async function connectRateLimitRedis(
  url: string,
  log: FastifyBaseLogger,
  commandTimeoutMs = 1000,
): Promise<RateLimitRedis> {
  // Loaded only with REDIS_URL set: an instance without it never pays for the client at start-up.
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    connectionName: 'ferry-rate-limit',
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: commandTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
  });
  let unreachableSince: number | undefined;
  let lastWarning = 0;
  client.on('error', (error: Error) => {
    const now = Date.now();
    unreachableSince ??= now;
    if (now - lastWarning < WARNING_INTERVAL_MS) return;
    lastWarning = now;
    log.warn(
      { err: { message: error.message }, unreachableForMs: now - unreachableSince },
      'rate-limit Redis unreachable: requests pass without rate limiting until it is back',
    );
  });
  client.on('ready', () => {
    if (unreachableSince === undefined) return;
    log.info({ unreachableForMs: Date.now() - unreachableSince }, 'rate-limit Redis reachable again');
    unreachableSince = undefined;
    lastWarning = 0;
  });
  try {
    await client.connect();
  } catch {
    // Already logged by the error listener; ioredis keeps reconnecting in the background.
  }
  return {
    client,
    close: async () => {
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}
