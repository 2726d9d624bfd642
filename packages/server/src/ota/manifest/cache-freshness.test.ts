import { describe, expect, it } from 'vitest';
import { type CachedTimes, type Freshness, freshness } from './cache-freshness.js';

// Loaded at 0 with a TTL of 60 and a stale-if-error limit of 3600.
const loaded: CachedTimes = { expiresAt: 60, staleUntil: 3_660, reloadAt: 60 };
const reloading: CachedTimes = { ...loaded, reloadAt: Number.POSITIVE_INFINITY };
const failedAt100: CachedTimes = { ...loaded, reloadAt: 160 };
const noStale: CachedTimes = { expiresAt: 60, staleUntil: 60, reloadAt: 60 };

describe('freshness', () => {
  it.each([
    ['just loaded', loaded, 0, 'fresh'],
    ['at its TTL', loaded, 60, 'fresh'],
    ['past its TTL: served, and one reload starts', loaded, 61, 'revalidate'],
    ['past its TTL with a reload under way', reloading, 61, 'stale'],
    ['a reload failed at 100: served until the next is due', failedAt100, 159, 'stale'],
    ['…which is a TTL later', failedAt100, 160, 'revalidate'],
    ['at the stale-if-error limit', failedAt100, 3_660, 'revalidate'],
    ['past the limit, counted from the load: dropped', failedAt100, 3_661, 'expired'],
    ['past the limit with a reload under way', reloading, 3_661, 'expired'],
    ['no stale-if-error (0): fresh at its TTL', noStale, 60, 'fresh'],
    ['no stale-if-error (0): dropped past its TTL, as a plain TTL', noStale, 61, 'expired'],
  ] as const)('%s → %s', (_name, times, now, expected: Freshness) => {
    expect(freshness(times, now)).toBe(expected);
  });
});
