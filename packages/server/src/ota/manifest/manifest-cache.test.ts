import type { Release, Track } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { ManifestCache } from './manifest-cache.js';

const track: Track = { channel: 'production', platform: 'ios', runtimeVersion: '1' };
const release = (id: string) => ({ id }) as Release;

/** A load the test resolves by hand, to order it against invalidations. */
function controlledLoads() {
  const pending: Array<(value: Release | undefined) => void> = [];
  let calls = 0;
  return {
    load: () => {
      calls++;
      return new Promise<Release | undefined>((resolve) => pending.push(resolve));
    },
    resolveNext: (value: Release | undefined) => pending.shift()!(value),
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
    loads.resolveNext(release('a'));
    const entries = await Promise.all(waiting);
    expect(new Set(entries).size).toBe(1);
    expect(cache.peek(track)?.newest?.id).toBe('a');
    await cache.entry(track);
    expect(loads.calls).toBe(1);
  });

  it('remembers that a track has no release', async () => {
    const loads = controlledLoads();
    const cache = new ManifestCache({ load: loads.load, ttlMs: 60_000 });
    const entry = cache.entry(track);
    loads.resolveNext(undefined);
    expect((await entry).newest).toBeUndefined();
    expect(cache.peek(track)).toBeDefined();
  });

  it('an invalidation during a load discards that load, and later reads load again', async () => {
    const loads = controlledLoads();
    const cache = new ManifestCache({ load: loads.load, ttlMs: 60_000 });
    const stale = cache.entry(track);
    cache.invalidate(track);
    const fresh = cache.entry(track);
    expect(loads.calls).toBe(2);
    loads.resolveNext(release('old'));
    loads.resolveNext(release('new'));
    expect((await stale).newest?.id).toBe('old');
    expect((await fresh).newest?.id).toBe('new');
    expect(cache.peek(track)?.newest?.id).toBe('new');
  });

  it('invalidate and clear drop cached tracks', async () => {
    const loads = controlledLoads();
    const cache = new ManifestCache({ load: loads.load, ttlMs: 60_000 });
    const entry = cache.entry(track);
    loads.resolveNext(release('a'));
    await entry;
    cache.invalidate(track);
    expect(cache.peek(track)).toBeUndefined();
    const again = cache.entry(track);
    loads.resolveNext(release('b'));
    await again;
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxTracks tracks', async () => {
    const cache = new ManifestCache({ load: async () => undefined, ttlMs: 60_000, maxTracks: 3 });
    for (let i = 0; i < 10; i++) await cache.entry({ ...track, runtimeVersion: String(i) });
    expect(cache.size).toBe(3);
  });
});
