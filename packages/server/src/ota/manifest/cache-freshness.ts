/**
 * The times of a cached track, on the cache's clock (milliseconds):
 * - `expiresAt`: its load plus the TTL. Until then it is fresh, served without a thought.
 * - `staleUntil`: `expiresAt` plus the stale-if-error limit. Past the TTL it is still served, stale,
 *   while a reload is under way or after one failed (the database unavailable), but never after
 *   this: it is then dropped, and its requests wait for a load (503 while the database is down).
 *   Counted from the last successful load, so failed reloads never extend it.
 * - `reloadAt`: when the next reload may start: `expiresAt` at first, a TTL after a failed one,
 *   never while one is under way.
 */
export interface CachedTimes {
  expiresAt: number;
  staleUntil: number;
  reloadAt: number;
}

/**
 * - fresh: serve it.
 * - revalidate: serve it, and start one reload in the background (never on a device's time).
 * - stale: serve it; a reload is under way, or the last one failed and the next is not due.
 * - expired: do not serve it; drop it and load.
 */
export type Freshness = 'fresh' | 'revalidate' | 'stale' | 'expired';

/** What a cached track may be used for at `now` (stale-while-revalidate, stale-if-error). */
export function freshness(times: CachedTimes, now: number): Freshness {
  if (now <= times.expiresAt) return 'fresh';
  if (now > times.staleUntil) return 'expired';
  return now >= times.reloadAt ? 'revalidate' : 'stale';
}
