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
  /** Milliseconds on a monotonic clock; tests pass their own. */
  now?: () => number;
}

/**
 * How stale a kept slot's place in the least-recently-used order may get: a slot used through
 * `holds` is moved to the recent end at most once per this many milliseconds, not on every request.
 */
export const RECENCY_RESOLUTION_MS = 1_000;

/**
 * A track's entry as the cache holds it, alive until the cache drops it (a publish, an
 * invalidation, eviction, expiry, clear). A new entry for the track gets a new slot.
 */
export class TrackSlot {
  /** The holds that keep it (`keep`); the cache releases them when it drops the entry. */
  readonly holders: KeptSlot[] = [];
  constructor(
    readonly key: string,
    readonly entry: TrackEntry,
    /** When the entry was stored plus ttlMs, on the cache's clock: after it, the entry has expired. */
    readonly expiresAt: number,
  ) {}
}

/**
 * A slot kept by a caller (a remembered request), with what `holds` needs to check it without
 * reading the slot: the cache it came from and its expiry. When the cache drops the entry it
 * releases every hold of it, so a hold never serves an entry a lookup would not find, and what the
 * holds retain stays within the cache's bounds. A warm request then reads nothing of its track but
 * the answer: with 1,000 tracks, the hashed lookup, the LRU bookkeeping and the entry's objects
 * were a chain of reads from memory per request (bench:manifest (d)).
 */
export class KeptSlot {
  cache: ManifestCache | undefined = undefined;
  slot: TrackSlot | undefined = undefined;
  expiresAt = 0;
  /** When the slot last took its place as most recently used through this hold. */
  usedAt = 0;
  /** Its place in the slot's `holders` while it is listed there, else -1. */
  index = -1;

  /** Lets go of the slot and of anything taken from its entry (subclasses add theirs). */
  release(): void {
    const slot = this.slot;
    if (slot !== undefined && this.index >= 0) {
      // Out of the slot's list in O(1): the last hold takes this one's place.
      const last = slot.holders.pop()!;
      if (last !== this) {
        slot.holders[this.index] = last;
        last.index = this.index;
      }
    }
    this.index = -1;
    this.slot = undefined;
  }
}

/**
 * The newest release per track, in memory. A miss loads once however many requests wait for it.
 * An invalidation during a load discards that load's result, so a publish is never hidden by a
 * read that started before it.
 */
export class ManifestCache {
  private readonly entries: LRUCache<string, TrackSlot>;
  private readonly now: () => number;
  /** Loads under way; a crowd waiting for one track is woken a slice per event-loop turn. */
  private readonly loading = new SingleFlight<string, TrackEntry>();
  private generation_ = 0;

  constructor(private readonly options: ManifestCacheOptions) {
    const now = options.now ?? (() => performance.now());
    this.now = now;
    this.entries = new LRUCache<string, TrackSlot>({
      max: options.maxTracks ?? MANIFEST_CACHE_MAX_TRACKS,
      maxSize: options.maxBytes ?? MANIFEST_CACHE_MAX_BYTES,
      sizeCalculation: (slot) => entryBytes(slot.entry),
      ttl: options.ttlMs,
      // The holds' clock, read on every lookup: an entry lru-cache finds stale has expired for
      // `holds` too (store reads the slot's time first, so lru-cache's entry never expires first).
      perf: { now },
      ttlResolution: 0,
      // Every hold listed is a hold of this slot (release takes a hold off the list).
      dispose: (slot) => {
        for (const kept of slot.holders) {
          kept.index = -1;
          kept.release();
        }
        slot.holders.length = 0;
      },
    });
  }

  /** The cached slot of a track by its key (a parsed request carries it), without loading. */
  slot(key: string): TrackSlot | undefined {
    return this.entries.get(key);
  }

  /**
   * Keeps a slot just looked up (`slot`, so one the cache holds) in a caller's hold, which lets go
   * of what it held before.
   */
  keep(kept: KeptSlot, slot: TrackSlot, now: number): void {
    kept.release();
    kept.cache = this;
    kept.slot = slot;
    kept.expiresAt = slot.expiresAt;
    kept.usedAt = now;
    kept.index = slot.holders.push(kept) - 1;
  }

  /**
   * Whether a kept slot still holds its track's entry here: neither dropped (which releases the
   * hold) nor expired. The hot path's check, reading only the hold. It keeps the slot's place in the
   * LRU order to within RECENCY_RESOLUTION_MS, so a track in use is never the one evicted.
   */
  holds(kept: KeptSlot, now: number): boolean {
    const slot = kept.slot;
    if (kept.cache !== this || slot === undefined || now > kept.expiresAt) return false;
    if (now - kept.usedAt >= RECENCY_RESOLUTION_MS) {
      kept.usedAt = now;
      this.entries.get(slot.key);
      return kept.slot === slot;
    }
    return true;
  }

  entry(track: Track): Promise<TrackEntry> {
    const key = trackKey(track);
    const hit = this.entries.get(key);
    if (hit) return Promise.resolve(hit.entry);
    return this.loading.run(key, () => {
      const generation = this.generation_;
      return this.options.load(track).then((entry) => {
        if (generation === this.generation_) this.store(key, entry);
        return entry;
      });
    });
  }

  /** Stores an entry in a new slot; one over the byte bound is not kept (and its slot never found). */
  private store(key: string, entry: TrackEntry): void {
    const slot = new TrackSlot(key, entry, this.now() + this.options.ttlMs);
    this.entries.set(key, slot);
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
      this.store(key, entry);
      filled.push(key);
    }
    // The bounds may have evicted some of them again.
    return filled.filter((key) => this.entries.has(key)).length;
  }

  /** Replaces a track's entry with one known to be newest (this instance just published it). */
  prime(track: Track, entry: TrackEntry): void {
    this.invalidate(track);
    this.store(trackKey(track), entry);
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
