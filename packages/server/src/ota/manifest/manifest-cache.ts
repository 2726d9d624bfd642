import { MANIFEST_NAMESPACES } from '@ferry/contracts';
import { LRUCache } from 'lru-cache';
import { SingleFlight } from '../../single-flight.js';
import type { Track } from '../app-track.js';
import { type CachedTimes, freshness } from './cache-freshness.js';
import type { TrackEntry } from './manifest-decision.js';
import { trackKey } from './track-key.js';

/** Tracks and bytes held at most, unless the options say otherwise (MANIFEST_CACHE_MAX_MB). */
export const MANIFEST_CACHE_MAX_TRACKS = 10_000;
export const MANIFEST_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Background reloads under way at once. Tracks that all passed their TTL together (an idle minute,
 * a start-up's bulk load) are reloaded a few at a time, so reloading never competes with answering
 * devices for the database pool or the event loop.
 */
export const BACKGROUND_RELOADS = 4;

/**
 * What an entry costs in memory, roughly: its signed bodies (the JSON one counted twice, for the
 * parsed release of about its size), plus a fixed overhead. An entry alone above the byte bound is
 * served but not kept.
 */
export function entryBytes(entry: TrackEntry): number {
  let bytes = 512;
  for (const served of [entry.head, entry.fallback]) {
    for (const ns of MANIFEST_NAMESPACES) {
      const answers = served?.answers[ns];
      bytes += (answers?.json?.body?.length ?? 0) * 2 + (answers?.multipart?.body?.length ?? 0);
    }
  }
  return bytes;
}

/** What the cache tells about tracks served past their TTL because reloading them failed. */
export interface StaleListener {
  /**
   * A track's reload failed: it is served stale until its limit. Told once per entry, not per
   * retry; `staleTracks` counts the tracks served so, this one included.
   */
  reloadFailed(track: Track, error: unknown, staleTracks: number): void;
  /**
   * A track served stale is not any more: `limit` when it reached its stale-if-error limit (dropped,
   * so its requests load), otherwise replaced (a load, a publish) or dropped (invalidation, eviction).
   */
  staleEnded(track: Track, limit: boolean, staleTracks: number): void;
  /** A lookup found a track whose reload failed: one per answer (such a track is never held). */
  servedStale(): void;
}

export interface ManifestCacheOptions {
  load: (track: Track) => Promise<TrackEntry>;
  /**
   * Safety net for a missed notification; publishes invalidate at once. Past it an entry is
   * reloaded in the background by the first request that finds it, which it still answers.
   */
  ttlMs: number;
  /**
   * How long past ttlMs an entry is still served while its reload is under way or failing
   * (stale-if-error, counted from its load); 0 (the default) drops it at ttlMs.
   */
  staleMs?: number;
  stale?: StaleListener;
  /** Bounds memory when clients ask for many tracks that do not exist. */
  maxTracks?: number;
  /** Bounds memory when releases are large (many assets). */
  maxBytes?: number;
  /** Milliseconds on a monotonic clock; tests pass their own. */
  now?: () => number;
}

/**
 * A track's entry as the cache holds it, alive until the cache drops it (a publish, an
 * invalidation, eviction, expiry, clear). A new entry for the track gets a new slot.
 */
export class TrackSlot implements CachedTimes {
  readonly staleUntil: number;
  reloadAt: number;
  /** Whether its last reload failed: it is then served stale (stale-if-error) until staleUntil. */
  failed = false;
  /** When a lookup last moved it to the recent end of the LRU order. */
  usedAt = Number.NEGATIVE_INFINITY;
  constructor(
    readonly key: string,
    readonly track: Track,
    readonly entry: TrackEntry,
    /** When the entry was stored plus ttlMs, on the cache's clock: after it, no hold serves it. */
    readonly expiresAt: number,
    staleMs: number,
  ) {
    this.staleUntil = expiresAt + staleMs;
    this.reloadAt = expiresAt;
  }
}

/**
 * The newest release per track, in memory. A miss loads once however many requests wait for it.
 * An invalidation during a load discards that load's result, so a publish is never hidden by a
 * read that started before it. Past its TTL an entry is reloaded in the background and served
 * meanwhile, and while reloading fails, up to its stale-if-error limit (cache-freshness.ts).
 */
/**
 * How stale a slot's place in the least-recently-used order may get: a lookup moves it to the
 * recent end at most once per this many milliseconds, so a track in use is never the one evicted
 * and a warm lookup is one Map read.
 */
export const RECENCY_RESOLUTION_MS = 1_000;

export class ManifestCache {
  /** The bounds and the eviction order. */
  private readonly entries: LRUCache<string, TrackSlot>;
  /** The slots `entries` holds, by key, for lookups (kept in step by store and dispose). */
  private readonly byKey = new Map<string, TrackSlot>();
  private readonly now: () => number;
  private readonly staleMs: number;
  /** Loads under way; a crowd waiting for one track is woken a slice per event-loop turn. */
  private readonly loading = new SingleFlight<string, TrackEntry>();
  private generation_ = 0;
  private staleTracks_ = 0;
  /** Slots waiting for a background reload, oldest first, and how many reloads are under way. */
  private readonly reloadQueue: TrackSlot[] = [];
  private reloading = 0;

  constructor(private readonly options: ManifestCacheOptions) {
    const now = options.now ?? (() => performance.now());
    this.now = now;
    this.staleMs = options.staleMs ?? 0;
    this.entries = new LRUCache<string, TrackSlot>({
      max: options.maxTracks ?? MANIFEST_CACHE_MAX_TRACKS,
      maxSize: options.maxBytes ?? MANIFEST_CACHE_MAX_BYTES,
      sizeCalculation: (slot) => entryBytes(slot.entry),
      // No TTL of lru-cache's own: a slot's times are its own (freshness), checked by every lookup,
      // and a slot past its limit is dropped by the lookup or by refreshDue, whichever comes first.
      dispose: (slot, key) => {
        if (this.byKey.get(key) === slot) this.byKey.delete(key);
        if (slot.failed) {
          slot.failed = false;
          this.staleTracks_--;
          const limit = this.now() > slot.staleUntil;
          this.options.stale?.staleEnded(slot.track, limit, this.staleTracks_);
        }
      },
    });
  }

  /**
   * The cached slot of a track by its key (a parsed request carries it), without waiting for a
   * load: past its TTL the first lookup starts one reload in the background and still gets the
   * slot; past its stale-if-error limit the slot is dropped and the lookup misses.
   */
  slot(key: string, now = this.now()): TrackSlot | undefined {
    const slot = this.byKey.get(key);
    if (slot === undefined) return undefined;
    if (now - slot.usedAt >= RECENCY_RESOLUTION_MS) {
      slot.usedAt = now;
      this.entries.get(key);
    }
    const state = freshness(slot, now);
    if (state === 'fresh') return slot;
    if (state === 'expired') {
      this.entries.delete(key);
      return undefined;
    }
    if (state === 'revalidate') this.revalidate(slot);
    if (slot.failed) this.options.stale?.servedStale();
    return slot;
  }

  /**
   * One reload of a slot past its TTL, answering no request: the slot serves until it succeeds
   * (a new slot replaces it), and after a failure until its limit, trying again a TTL later.
   * Queued: at most BACKGROUND_RELOADS run at once.
   */
  private revalidate(slot: TrackSlot): void {
    slot.reloadAt = Number.POSITIVE_INFINITY;
    this.reloadQueue.push(slot);
    this.startReloads();
  }

  private startReloads(): void {
    while (this.reloading < BACKGROUND_RELOADS && this.reloadQueue.length > 0) {
      const slot = this.reloadQueue.shift()!;
      // Dropped or replaced while it waited (a publish, an invalidation, eviction): nothing to do.
      if (this.entries.peek(slot.key) !== slot) continue;
      this.reloading++;
      this.reload(slot).finally(() => {
        this.reloading--;
        this.startReloads();
      });
    }
  }

  private reload(slot: TrackSlot): Promise<void> {
    return this.load(slot.key, slot.track).then(
      () => {
        // Not kept (an invalidation since discarded it): the next request tries again.
        if (this.entries.peek(slot.key) === slot) slot.reloadAt = this.now();
      },
      (error: unknown) => {
        if (this.entries.peek(slot.key) !== slot) return;
        slot.reloadAt = this.now() + this.options.ttlMs;
        if (slot.failed) return;
        slot.failed = true;
        this.staleTracks_++;
        this.options.stale?.reloadFailed(slot.track, error, this.staleTracks_);
      },
    );
  }

  /**
   * Starts the background reload of every kept track past its TTL whose reload is due, whether or
   * not a device asks for it: run every so often (`ManifestService.startRefreshing`), it keeps
   * tracks nobody asked for lately from reaching their stale-if-error limit, where they would be
   * dropped and the next device would wait for a load; drops those past it. Returns how many it queued.
   */
  refreshDue(now = this.now()): number {
    let queued = 0;
    for (const slot of [...this.entries.values()]) {
      const state = freshness(slot, now);
      if (state === 'expired') this.entries.delete(slot.key);
      if (state !== 'revalidate') continue;
      this.revalidate(slot);
      queued++;
    }
    return queued;
  }

  /** Background reloads waiting or under way. */
  get reloadsPending(): number {
    return this.reloadQueue.length + this.reloading;
  }

  entry(track: Track): Promise<TrackEntry> {
    const key = trackKey(track);
    const hit = this.slot(key);
    if (hit) return Promise.resolve(hit.entry);
    return this.load(key, track);
  }

  /** The track's one load under way, kept unless something was invalidated since it started. */
  private load(key: string, track: Track): Promise<TrackEntry> {
    return this.loading.run(key, () => {
      const generation = this.generation_;
      return this.options.load(track).then((entry) => {
        if (generation === this.generation_) this.store(key, track, entry);
        return entry;
      });
    });
  }

  /** Stores an entry in a new slot; one over the byte bound is not kept (and its slot never found). */
  private store(key: string, track: Track, entry: TrackEntry): void {
    const slot = new TrackSlot(key, track, entry, this.now() + this.options.ttlMs, this.staleMs);
    this.entries.set(key, slot);
    if (this.entries.peek(key) === slot) this.byKey.set(key, slot);
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
      const held = this.entries.peek(key);
      if (held !== undefined && freshness(held, this.now()) !== 'expired') continue;
      this.store(key, track, entry);
      filled.push(key);
    }
    // The bounds may have evicted some of them again.
    return filled.filter((key) => this.entries.has(key)).length;
  }

  /** Replaces a track's entry with one known to be newest (this instance just published it). */
  prime(track: Track, entry: TrackEntry): void {
    this.invalidate(track);
    this.store(trackKey(track), track, entry);
  }

  /** Drops one track: the next request reads the database again. */
  invalidate(track: Track): void {
    const key = trackKey(track);
    this.generation_++;
    this.entries.delete(key);
    this.loading.forget(key);
  }

  /** Drops every track `drop` picks (an app's, when its key changed). */
  invalidateWhere(drop: (track: Track) => boolean): void {
    for (const slot of [...this.entries.values()]) if (drop(slot.track)) this.invalidate(slot.track);
  }

  /** Drops everything, e.g. after notifications may have been missed. */
  clear(): void {
    this.generation_++;
    this.entries.clear();
    this.byKey.clear();
    this.loading.clear();
    this.reloadQueue.length = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Tracks it may still answer at `now` without a load (not yet past their stale-if-error limit):
   * what it can serve while the database is down (readiness).
   */
  servableTracks(now = this.now()): number {
    let count = 0;
    for (const slot of this.entries.values()) if (freshness(slot, now) !== 'expired') count++;
    return count;
  }

  /** Tracks served past their TTL because their last reload failed. */
  get staleTracks(): number {
    return this.staleTracks_;
  }

  /** What the cached entries cost, by entryBytes. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }
}
