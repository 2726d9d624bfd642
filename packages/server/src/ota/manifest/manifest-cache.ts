import type { ManifestNamespace, Track } from '@ferry/contracts';
import { LRUCache } from 'lru-cache';
import { SingleFlight } from '../../single-flight.js';
import type { Timeline } from '../rollout/track-timeline.js';
import type { ManifestOutcome } from './manifest-outcome.js';
import type { SignedManifest } from './manifest-response.js';
import { trackKey } from './track-key.js';

/** One entry of a track as served: a release's manifest or a directive, signed in every namespace. */
export interface ServedEntry {
  kind: 'release' | 'directive';
  id: string;
  signed: Readonly<Record<ManifestNamespace, SignedManifest>>;
  /** The outcome that serves it, per namespace: made once, so the hot path allocates nothing. */
  outcomes: Readonly<Record<ManifestNamespace, ManifestOutcome>>;
}

/** What the cache knows about one track: its head, the head's rollout, and the fallback. */
export type TrackEntry = Timeline<ServedEntry>;

/** Tracks and bytes held at most, unless the options say otherwise. */
export const MANIFEST_CACHE_MAX_TRACKS = 10_000;
export const MANIFEST_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * What an entry costs in memory, roughly: its signed bodies, plus the parsed release (about the size
 * of one manifest JSON) and a fixed overhead. An entry alone above the byte bound is served but not kept.
 */
export function entryBytes(entry: TrackEntry): number {
  let bytes = 512;
  for (const served of [entry.head, entry.fallback]) {
    for (const signed of Object.values(served?.signed ?? {})) bytes += signed.json.length * 2 + signed.multipart.length;
  }
  return bytes;
}

export interface ManifestCacheOptions {
  load: (track: Track) => Promise<TrackEntry>;
  /** Safety net for a missed notification; publishes invalidate at once. */
  ttlMs: number;
  /** Bounds memory when clients ask for many tracks that do not exist. */
  maxTracks?: number;
  /** Bounds memory when releases are large (many assets). */
  maxBytes?: number;
}

/**
 * The newest release per track, in memory. A miss loads once however many requests wait for it.
 * An invalidation during a load discards that load's result, so a publish is never hidden by a
 * read that started before it.
 */
export class ManifestCache {
  private readonly entries: LRUCache<string, TrackEntry>;
  /** Loads under way; a crowd waiting for one track is woken a slice per event-loop turn. */
  private readonly loading = new SingleFlight<string, TrackEntry>();
  private generation_ = 0;

  constructor(private readonly options: ManifestCacheOptions) {
    this.entries = new LRUCache<string, TrackEntry>({
      max: options.maxTracks ?? MANIFEST_CACHE_MAX_TRACKS,
      maxSize: options.maxBytes ?? MANIFEST_CACHE_MAX_BYTES,
      sizeCalculation: entryBytes,
      ttl: options.ttlMs,
    });
  }

  /** The cached entry, without loading: the hot path's synchronous check. */
  peek(track: Track): TrackEntry | undefined {
    return this.peekKey(trackKey(track));
  }

  /** `peek` by a key made earlier (a parsed request carries its track's). */
  peekKey(key: string): TrackEntry | undefined {
    return this.entries.get(key);
  }

  entry(track: Track): Promise<TrackEntry> {
    const key = trackKey(track);
    const hit = this.entries.get(key);
    if (hit) return Promise.resolve(hit);
    return this.loading.run(key, () => {
      const generation = this.generation_;
      return this.options.load(track).then((entry) => {
        if (generation === this.generation_) this.entries.set(key, entry);
        return entry;
      });
    });
  }

  /** A mark to pass to `fill`: loads that started before a later invalidation are not kept. */
  get generation(): number {
    return this.generation_;
  }

  /**
   * Keeps entries read in bulk (start-up), oldest first so the most recent stay longest, except
   * for tracks already cached and for all of them if anything was invalidated since `since`.
   */
  fill(entries: Array<[Track, TrackEntry]>, since: number): number {
    if (since !== this.generation_) return 0;
    const filled: string[] = [];
    for (const [track, entry] of entries.toReversed()) {
      const key = trackKey(track);
      if (this.entries.has(key)) continue;
      this.entries.set(key, entry);
      filled.push(key);
    }
    // The bounds may have evicted some of them again.
    return filled.filter((key) => this.entries.has(key)).length;
  }

  /** Replaces a track's entry with one known to be newest (this instance just published it). */
  prime(track: Track, entry: TrackEntry): void {
    this.invalidate(track);
    this.entries.set(trackKey(track), entry);
  }

  /** Drops one track: the next request reads the database again. */
  invalidate(track: Track): void {
    const key = trackKey(track);
    this.generation_++;
    this.entries.delete(key);
    this.loading.forget(key);
  }

  /** Drops everything, e.g. after notifications may have been missed. */
  clear(): void {
    this.generation_++;
    this.entries.clear();
    this.loading.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the cached entries cost, by entryBytes. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }
}
