import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { RedisBreaker } from './redis-breaker.js';

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

/** @fastify/rate-limit's store contract (its README, "Custom store"), `read` included. */
export interface Store {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read(key: string, callback: Callback, timeWindow: number, max: number): void;
  /** Given the route's merged rate-limit options (typed by the plugin as the route's options). */
  child(routeOptions: object): Store;
}
interface ChildOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: unknown; url?: unknown };
}
type RedisStoreConstructor = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => Store;

// The plugin's own Redis store (its Lua counter), which its `redis` option would use: only wrapped here.
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as RedisStoreConstructor;

/** Every command of the wrapped store goes through the breaker. */
class BreakerStore implements Store {
  constructor(
    private readonly inner: Store,
    private readonly breaker: RedisBreaker,
    private readonly client: Redis,
    private readonly keyPrefix: string,
  ) {}

  incr(key: string, callback: Callback, timeWindow: number, max: number): void {
    this.breaker.run<Counted>((done) => this.inner.incr(key, done, timeWindow, max), callback);
  }

  read(key: string, callback: Callback, timeWindow: number, max: number): void {
    this.breaker.run<Counted>((done) => this.inner.read(key, done, timeWindow, max), callback);
  }

  /**
   * A route's store counts under `<prefix><METHOD><url>-` like the plugin's (decisions.md, "Shared
   * rate limits"). A limiter made with `createRateLimit` has no route: it keeps the bare prefix, its
   * keys being named by its key generator (`auth-failures:<address>`).
   */
  child(routeOptions: object): Store {
    const options = routeOptions as ChildOptions;
    const route = options.routeInfo;
    const prefix =
      route?.url === undefined ? this.keyPrefix : `${this.keyPrefix}${String(route.method)}${String(route.url)}-`;
    const inner = new RedisStore(
      options.continueExceeding ?? false,
      options.exponentialBackoff ?? false,
      this.client,
      prefix,
    );
    return new BreakerStore(inner, this.breaker, this.client, prefix);
  }
}

/**
 * The `store` option of @fastify/rate-limit for counters in Redis: the plugin's Redis store behind
 * the circuit breaker, so a Redis that stopped answering costs at most a few requests the command
 * timeout before limits fail open at once (decisions.md, "Shared rate limits").
 */
export function breakerRedisStore(
  client: Redis,
  keyPrefix: string,
  breaker: RedisBreaker,
): new (options: {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
}) => Store {
  return class extends BreakerStore {
    constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const inner = new RedisStore(
        options.continueExceeding ?? false,
        options.exponentialBackoff ?? false,
        client,
        keyPrefix,
      );
      super(inner, breaker, client, keyPrefix);
    }
  };
}
