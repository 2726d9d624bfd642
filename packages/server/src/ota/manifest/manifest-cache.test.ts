import { describe, expect, it, vi } from 'vitest';
import type { Track } from '../app-track.js';
import { entryAnswers } from './manifest-answer.js';
import {
  BACKGROUND_RELOADS,
  entryBytes,
  MANIFEST_CACHE_MAX_BYTES,
  ManifestCache,
  RECENCY_RESOLUTION_MS,
  type StaleListener,
} from './manifest-cache.js';
import type { ServedEntry, TrackEntry } from './manifest-decision.js';
import type { SignedManifest } from './manifest-response.js';
import { trackKey } from './track-key.js';

const track: Track = { app: 'default', channel: 'production', platform: 'ios', runtimeVersion: '1' };
/** The cached entry of a track, without loading. */
const peek = (cache: ManifestCache, of: Track) => cache.slot(trackKey(of))?.entry;
const entry = (id: string | undefined, jsonBytes = 100): TrackEntry => {
  if (id === undefined) return { head: undefined, rollout: undefined, fallback: undefined };
  const signed = (namespace: 'ota' | 'expo') =>
    ({
      releaseId: id,
      namespace,
      json: Buffer.alloc(jsonBytes),
      multipart: Buffer.alloc(jsonBytes + 200),
    }) as SignedManifest;
  const head: ServedEntry = {
    kind: 'release',
    id,
    answers: entryAnswers({ ota: signed('ota'), expo: signed('expo') }, 'release', false),
  };
  return { head, rollout: undefined, fallback: undefined };
};

/** A load the test resolves by hand, to order it against invalidations. */
function controlledLoads() {
  const pending: Array<{ resolve: (value: TrackEntry) => void; reject: (error: unknown) => void }> = [];
  let calls = 0;
  return {
    load: () => {
      calls++;
      return new Promise<TrackEntry>((resolve, reject) => pending.push({ resolve, reject }));
    },
    resolveNext: (id: string | undefined) => pending.shift()!.resolve(entry(id)),
    rejectNext: (error: unknown) => pending.shift()!.reject(error),
    get pending() {
      return pending.length;
    },
    get calls() {
      return calls;
    },
  };
}

describe('ManifestCache', () => {
  it('loads a track once however many requests wait, then serves it from memory', async () => {
    const loads = controlledLoads();
    const cache = new ManifestCache({ load: loads.load, ttlMs: 60_000 });
    const waiting = [cache.entry(track), cache.entry(track), cache.entry(track)];
    loads.resolveNext('a');
    const entries = await Promise.all(waiting);
    expect(new Set(entries).size).toBe(1);
    expect(peek(cache, track)?.head?.id).toBe('a');
    await cache.entry(track);
    expect(loads.calls).toBe(1);
  });

  it('remembers that a track has no release', async () => {
    const loads = controlledLoads();
    const cache = new ManifestCache({ load: loads.load, ttlMs: 60_000 });
    const loading = cache.entry(track);
    loads.resolveNext(undefined);
    expect((await loading).head).toBeUndefined();
    expect(peek(cache, track)).toBeDefined();
  });

  it('an invalidation during a load discards that load, and later reads load again', async () => {
    const loads = controlledLoads();
    const cache = new ManifestCache({ load: loads.load, ttlMs: 60_000 });
    const stale = cache.entry(track);
    cache.invalidate(track);
    const fresh = cache.entry(track);
    expect(loads.calls).toBe(2);
    loads.resolveNext('old');
    loads.resolveNext('new');
    expect((await stale).head?.id).toBe('old');
    expect((await fresh).head?.id).toBe('new');
    expect(peek(cache, track)?.head?.id).toBe('new');
  });

  it('invalidate and clear drop cached tracks', async () => {
    const loads = controlledLoads();
    const cache = new ManifestCache({ load: loads.load, ttlMs: 60_000 });
    const loading = cache.entry(track);
    loads.resolveNext('a');
    await loading;
    cache.invalidate(track);
    expect(peek(cache, track)).toBeUndefined();
    const again = cache.entry(track);
    loads.resolveNext('b');
    await again;
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxTracks tracks', async () => {
    const cache = new ManifestCache({ load: async () => entry(undefined), ttlMs: 60_000, maxTracks: 3 });
    for (let i = 0; i < 10; i++) await cache.entry({ ...track, runtimeVersion: String(i) });
    expect(cache.size).toBe(3);
  });

  it('keeps at most maxBytes of signed manifests, dropping the least recently used track', async () => {
    const one = entryBytes(entry('x', 10_000));
    const cache = new ManifestCache({
      load: async (t) => entry(t.runtimeVersion, 10_000),
      ttlMs: 60_000,
      maxBytes: one * 4 + one / 2,
    });
    for (let i = 0; i < 50; i++) await cache.entry({ ...track, runtimeVersion: String(i) });
    expect(cache.size).toBe(4);
    expect(cache.bytes).toBeLessThanOrEqual(one * 4 + one / 2);
    expect(peek(cache, { ...track, runtimeVersion: '49' })).toBeDefined();
    expect(peek(cache, { ...track, runtimeVersion: '0' })).toBeUndefined();
  });

  it('serves an entry larger than the whole bound without keeping it', async () => {
    const loads = controlledLoads();
    const cache = new ManifestCache({ load: loads.load, ttlMs: 60_000, maxBytes: 1_000 });
    const loading = cache.entry(track);
    loads.resolveNext('huge');
    expect((await loading).head?.id).toBe('huge');
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('counts both namespaces of an entry, bodies and multipart alike', () => {
    expect(entryBytes(entry('a', 1_000))).toBe(512 + 2 * (1_000 * 2 + 1_200));
    expect(entryBytes(entry(undefined))).toBe(512);
  });

  it.each([
    // manifest JSON bytes, tracks that fit in the default 64 MiB (docs/configuration.md)
    [2_048, 5_080],
    [10_240, 1_080],
    [51_200, 218],
  ])('a %i-byte manifest: the default bound holds about %i tracks (the figures the docs give)', (bytes, tracks) => {
    const fit = Math.floor(MANIFEST_CACHE_MAX_BYTES / entryBytes(entry('a', bytes)));
    expect(Math.abs(fit - tracks) / tracks).toBeLessThan(0.02);
  });

  it('prime makes a just-published release the answer, and outruns a load that started before it', async () => {
    const loads = controlledLoads();
    const cache = new ManifestCache({ load: loads.load, ttlMs: 60_000 });
    const stale = cache.entry(track);
    cache.prime(track, entry('published'));
    loads.resolveNext('old');
    expect((await stale).head?.id).toBe('old');
    expect(peek(cache, track)?.head?.id).toBe('published');
    expect(loads.calls).toBe(1);
  });

  it('fill keeps bulk-read entries, never over one a request already loaded, and none after an invalidation', async () => {
    const cache = new ManifestCache({ load: async (t) => entry(`loaded-${t.runtimeVersion}`), ttlMs: 60_000 });
    await cache.entry({ ...track, runtimeVersion: 'b' });
    const since = cache.generation;
    const bulk = ['a', 'b', 'c'].map(
      (v) => [{ ...track, runtimeVersion: v }, entry(`bulk-${v}`)] as [Track, TrackEntry],
    );
    expect(cache.fill(bulk, since)).toBe(2);
    expect(peek(cache, { ...track, runtimeVersion: 'a' })?.head?.id).toBe('bulk-a');
    expect(peek(cache, { ...track, runtimeVersion: 'b' })?.head?.id).toBe('loaded-b');

    const stale = cache.generation;
    cache.invalidate({ ...track, runtimeVersion: 'a' });
    expect(cache.fill([[{ ...track, runtimeVersion: 'z' }, entry('bulk-z')]], stale)).toBe(0);
    expect(peek(cache, { ...track, runtimeVersion: 'z' })).toBeUndefined();
  });

  it('fill keeps the most recent tracks when they do not all fit', () => {
    const cache = new ManifestCache({ load: async () => entry(undefined), ttlMs: 60_000, maxTracks: 2 });
    // Most recently published first, as the store reads them.
    const bulk = ['newest', 'middle', 'oldest'].map(
      (v) => [{ ...track, runtimeVersion: v }, entry(v)] as [Track, TrackEntry],
    );
    expect(cache.fill(bulk, cache.generation)).toBe(2);
    expect(peek(cache, { ...track, runtimeVersion: 'newest' })).toBeDefined();
    expect(peek(cache, { ...track, runtimeVersion: 'middle' })).toBeDefined();
    expect(peek(cache, { ...track, runtimeVersion: 'oldest' })).toBeUndefined();
  });
});

describe('ManifestCache slots', () => {
  const key = trackKey(track);

  it('a track looked up keeps its place as recently used, to within RECENCY_RESOLUTION_MS', async () => {
    let now = 0;
    const cache = new ManifestCache({
      load: async (t) => entry(t.runtimeVersion),
      ttlMs: 3_600_000,
      maxTracks: 2,
      now: () => now,
    });
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((runtimeVersion) => ({ ...track, runtimeVersion }));
    await cache.entry(a!);
    await cache.entry(b!);
    now += RECENCY_RESOLUTION_MS;
    expect(cache.slot(trackKey(a!))?.entry.head?.id).toBe('a'); // now the most recent
    await cache.entry(c!); // evicts b, the least recently used
    expect(cache.slot(trackKey(b!))).toBeUndefined();
    expect(cache.slot(trackKey(a!))?.entry.head?.id).toBe('a');
    // Within the resolution a lookup leaves the order as it is: a, moved a moment ago, is older than c.
    now += RECENCY_RESOLUTION_MS - 1;
    expect(cache.slot(trackKey(a!))).toBeDefined();
    await cache.entry(d!);
    expect(cache.slot(trackKey(a!))).toBeUndefined();
    expect(cache.slot(trackKey(c!))?.entry.head?.id).toBe('c');
    expect(cache.size).toBe(2);
  });
  it('an entry too large to keep has no slot', async () => {
    let served: TrackEntry | undefined;
    const cache = new ManifestCache({
      load: async () => (served = entry('huge', 10_000)),
      ttlMs: 60_000,
      maxBytes: 1_000,
    });
    await cache.entry(track);
    expect(served).toBeDefined();
    expect(cache.slot(key)).toBeUndefined();
  });
});

describe('ManifestCache past the TTL (stale-while-revalidate, stale-if-error)', () => {
  const key = trackKey(track);
  const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  /** Loads settled between turns (a load's waiters wake on the next turn). */
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  /**
   * TTL 1,000 and stale-if-error 10,000 on a clock the test moves, with `track` loaded as 'a' at 0
   * (`at` counts from there; lru-cache reads a start time of 0 as "no TTL", so the clock starts later).
   */
  async function staleCache(staleMs = 10_000) {
    const origin = 1_000_000;
    let now = origin;
    const loads = controlledLoads();
    const stale = { reloadFailed: vi.fn(), staleEnded: vi.fn(), servedStale: vi.fn() } satisfies StaleListener;
    const cache = new ManifestCache({ load: loads.load, ttlMs: 1_000, staleMs, stale, now: () => now });
    const loading = cache.entry(track);
    loads.resolveNext('a');
    await loading;
    return {
      cache,
      loads,
      stale,
      at: (time: number) => {
        now = origin + time;
        return now;
      },
    };
  }

  it('the first lookup past the TTL is answered from the entry and starts one reload, which replaces it', async () => {
    const { cache, loads, at } = await staleCache();
    const old = cache.slot(key, at(500))!;
    expect(loads.pending).toBe(0);

    expect(cache.slot(key, at(1_001))).toBe(old);
    expect(cache.slot(key, at(1_002))).toBe(old);
    expect((await cache.entry(track)).head?.id).toBe('a');
    expect(loads.pending).toBe(1);
    expect(loads.calls).toBe(2);

    loads.resolveNext('b');
    await settled();
    expect(cache.slot(key, at(1_003))?.entry.head?.id).toBe('b');
    // Fresh for a TTL from its own load (stored at 1,002).
    expect(cache.slot(key, at(2_002))?.entry.head?.id).toBe('b');
    expect(loads.pending).toBe(0);
  });

  it('while reloading fails it serves the entry, tries again a TTL later, and drops it at the limit counted from the load', async () => {
    const { cache, loads, stale, at } = await staleCache();
    cache.slot(key, at(1_500));
    loads.rejectNext(down);
    await settled();
    expect(stale.reloadFailed).toHaveBeenCalledExactlyOnceWith(track, down, 1);
    expect(cache.staleTracks).toBe(1);

    // Served stale, each lookup counted; no new reload before a TTL has passed since the failure.
    expect(cache.slot(key, at(2_499))?.entry.head?.id).toBe('a');
    expect(stale.servedStale).toHaveBeenCalledTimes(1);
    expect(loads.pending).toBe(0);
    expect(cache.slot(key, at(2_500))?.entry.head?.id).toBe('a');
    expect(loads.pending).toBe(1);
    loads.rejectNext(down);
    await settled();
    // Told once per entry, not per retry.
    expect(stale.reloadFailed).toHaveBeenCalledTimes(1);

    // Loaded at 0: TTL 1,000 plus 10,000 of stale-if-error.
    expect(cache.slot(key, at(11_000))?.entry.head?.id).toBe('a');
    loads.rejectNext(down);
    await settled();
    expect(cache.slot(key, at(11_001))).toBeUndefined();
    expect(stale.staleEnded).toHaveBeenCalledExactlyOnceWith(track, true, 0);
    expect(cache.size).toBe(0);
    // The next request waits for a load, and fails with it.
    const cold = cache.entry(track);
    loads.rejectNext(down);
    await expect(cold).rejects.toBe(down);
  });

  it('a successful reload after failures serves the new entry and ends the stale state', async () => {
    const { cache, loads, stale, at } = await staleCache();
    cache.slot(key, at(1_500));
    loads.rejectNext(down);
    await settled();
    cache.slot(key, at(2_500));
    loads.resolveNext('b');
    await settled();
    expect(cache.slot(key, at(2_501))?.entry.head?.id).toBe('b');
    expect(stale.staleEnded).toHaveBeenCalledExactlyOnceWith(track, false, 0);
    expect(cache.staleTracks).toBe(0);
  });

  it('a publish during a background reload is never hidden by it', async () => {
    const { cache, loads, at } = await staleCache();
    cache.slot(key, at(1_500));
    cache.prime(track, entry('published'));
    loads.resolveNext('read before the publish');
    await settled();
    expect(cache.slot(key, at(1_501))?.entry.head?.id).toBe('published');
  });

  it('a reload discarded by an invalidation of another track is started again by the next lookup', async () => {
    const { cache, loads, at } = await staleCache();
    const old = cache.slot(key, at(1_500));
    cache.invalidate({ ...track, runtimeVersion: 'other' });
    loads.resolveNext('b');
    await settled();
    expect(cache.slot(key, at(1_501))).toBe(old);
    expect(loads.pending).toBe(1);
    loads.resolveNext('b');
    await settled();
    expect(cache.slot(key, at(1_502))?.entry.head?.id).toBe('b');
  });

  it('an invalidation of a track served stale ends its stale state', async () => {
    const { cache, loads, stale, at } = await staleCache();
    cache.slot(key, at(1_500));
    loads.rejectNext(down);
    await settled();
    cache.invalidate(track);
    expect(stale.staleEnded).toHaveBeenCalledExactlyOnceWith(track, false, 0);
    expect(cache.slot(key, at(1_501))).toBeUndefined();
  });

  it('without stale-if-error (0) an entry is dropped at its TTL and loaded on request, as before', async () => {
    const { cache, loads, at } = await staleCache(0);
    expect(cache.slot(key, at(1_000))).toBeDefined();
    expect(cache.slot(key, at(1_001))).toBeUndefined();
    expect(loads.pending).toBe(0);
  });

  /** `count` tracks loaded at 0 on a clock the test moves (TTL 1,000, stale-if-error 10,000). */
  async function manyTracks(count: number) {
    const origin = 1_000_000;
    let now = origin;
    const loads = controlledLoads();
    const cache = new ManifestCache({ load: loads.load, ttlMs: 1_000, staleMs: 10_000, now: () => now });
    const tracks = Array.from({ length: count }, (_, i): Track => ({ ...track, runtimeVersion: `idle-${i}` }));
    for (const each of tracks) {
      const loading = cache.entry(each);
      loads.resolveNext('a');
      await loading;
    }
    return { cache, loads, tracks, at: (time: number) => (now = origin + time) };
  }

  it('refreshDue reloads the tracks nobody asked for past their TTL, a few at a time, so none reaches its limit', async () => {
    const { cache, loads, tracks, at } = await manyTracks(10);
    expect(cache.refreshDue(at(1_000))).toBe(0);
    expect(cache.refreshDue(at(1_001))).toBe(10);
    expect(loads.pending).toBe(BACKGROUND_RELOADS);
    expect(cache.reloadsPending).toBe(10);
    // Queued or under way: not queued again.
    expect(cache.refreshDue(at(1_002))).toBe(0);
    while (loads.pending > 0) {
      loads.resolveNext('b');
      await settled();
    }
    expect(loads.calls).toBe(10 + 10);
    expect(cache.reloadsPending).toBe(0);
    // Past the limit of the first loads (11,000): every track is still served (and reloaded again
    // in the background, its reload past its own TTL).
    for (const each of tracks) expect(cache.slot(trackKey(each), at(11_500))?.entry.head?.id).toBe('b');
  });

  it('a lookup past the TTL is answered from the entry and waits its turn behind the background reloads', async () => {
    const { cache, loads, tracks, at } = await manyTracks(6);
    cache.refreshDue(at(1_001));
    const last = trackKey(tracks.at(-1)!);
    expect(cache.slot(last, at(1_002))?.entry.head?.id).toBe('a');
    expect(loads.pending).toBe(BACKGROUND_RELOADS);
    while (loads.pending > 0) {
      loads.resolveNext('b');
      await settled();
    }
    expect(loads.calls).toBe(6 + 6);
    expect(cache.slot(last, at(1_003))?.entry.head?.id).toBe('b');
  });

  it('a reload queued for a track that is published meanwhile is skipped', async () => {
    const { cache, loads, tracks, at } = await manyTracks(BACKGROUND_RELOADS + 1);
    cache.refreshDue(at(1_001));
    // The least recently used is queued last: it waits for a turn.
    expect(cache.reloadsPending).toBe(BACKGROUND_RELOADS + 1);
    cache.prime(tracks[0]!, entry('published'));
    while (loads.pending > 0) {
      loads.resolveNext('b');
      await settled();
    }
    expect(loads.calls).toBe(2 * BACKGROUND_RELOADS + 1);
    expect(cache.slot(trackKey(tracks[0]!), at(1_002))?.entry.head?.id).toBe('published');
  });

  it('counts the tracks it can still answer without a load, up to their stale-if-error limit (readiness)', async () => {
    const { cache, loads, at } = await staleCache();
    // A track whose load is under way has nothing to serve yet.
    void cache.entry({ ...track, platform: 'android' });
    expect(loads.pending).toBe(1);
    expect(cache.servableTracks(at(0))).toBe(1);
    // Past the TTL (no lookup, so no reload): still servable, stale, until the limit.
    expect(cache.servableTracks(at(5_000))).toBe(1);
    expect(cache.servableTracks(at(11_000))).toBe(1);
    expect(cache.servableTracks(at(11_001))).toBe(0);
  });
});
