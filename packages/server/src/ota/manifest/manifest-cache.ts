import type { ManifestNamespace, Release, Track } from '@ferry/contracts';
import { LRUCache } from 'lru-cache';
import type { SignedManifest } from './manifest-response.js';

/** What the cache knows about one track: its newest release (or none) and that release's signed bytes. */
export interface TrackEntry {
  newest: Release | undefined;
  /** Signed manifests of `newest`, per namespace, made on first demand. */
  signed: Partial<Record<ManifestNamespace, SignedManifest>>;
}

export const trackKey = (track: Track): string => `${track.channel}\n${track.platform}\n${track.runtimeVersion}`;

export interface ManifestCacheOptions {
  load: (track: Track) => Promise<Release | undefined>;
  /** Safety net for a missed notification; publishes invalidate at once. */
  ttlMs: number;
  /** Bounds memory when clients ask for many tracks that do not exist. */
  maxTracks?: number;
}

/**
 * The newest release per track, in memory. A miss loads once however many requests wait for it.
 * An invalidation during a load discards that load's result, so a publish is never hidden by a
 * read that started before it.
 */
export class ManifestCache {
  private readonly entries: LRUCache<string, TrackEntry>;
  private readonly loading = new Map<string, Promise<TrackEntry>>();
  private generation = 0;

  constructor(private readonly options: ManifestCacheOptions) {
    this.entries = new LRUCache<string, TrackEntry>({ max: options.maxTracks ?? 10_000, ttl: options.ttlMs });
  }

  /** The cached entry, without loading: the hot path's synchronous check. */
  peek(track: Track): TrackEntry | undefined {
    return this.entries.get(trackKey(track));
  }

  entry(track: Track): Promise<TrackEntry> {
    const key = trackKey(track);
    const hit = this.entries.get(key);
    if (hit) return Promise.resolve(hit);
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const load = this.options
      .load(track)
      .then((newest) => {
        const entry: TrackEntry = { newest, signed: {} };
        if (generation === this.generation) this.entries.set(key, entry);
        return entry;
      })
      .finally(() => {
        if (this.loading.get(key) === load) this.loading.delete(key);
      });
    this.loading.set(key, load);
    return load;
  }

  /** Drops one track: the next request reads the database again. */
  invalidate(track: Track): void {
    const key = trackKey(track);
    this.generation++;
    this.entries.delete(key);
    this.loading.delete(key);
  }

  /** Drops everything, e.g. after notifications may have been missed. */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
