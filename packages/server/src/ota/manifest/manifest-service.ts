import {
  MANIFEST_NAMESPACES,
  type ManifestNamespace,
  type ManifestRequest,
  type Release,
  type Track,
  trackOf,
} from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { FerryMetrics } from '../../metrics/ferry-metrics.js';
import type { ManifestSigner } from '../../signing/manifest-signer.js';
import type { AssetUrls } from '../assets/asset-urls.js';
import type { ReleaseStore, StoredEntry, StoredTimeline } from '../release-store.js';
import { chooseEntry, choosesByClient } from '../rollout/track-timeline.js';
import { ManifestCache, type ManifestCacheOptions, type ServedEntry, type TrackEntry } from './manifest-cache.js';
import { type ManifestOutcome, NO_RELEASE, OUTSIDE_ROLLOUT } from './manifest-outcome.js';
import type { ValidManifestRequest } from './manifest-request.js';
import { signedManifestOf } from './manifest-response.js';
import type { WarmedTrack } from './manifest-warm-up.js';
import {
  type ManifestSignature,
  NO_UPDATE_AVAILABLE_BODY,
  rollBackToEmbeddedBody,
  signBody,
  signDirective,
  signNamespace,
  signRelease,
} from './release-signatures.js';
import { StaleManifestLog } from './stale-manifest-log.js';

export type { ManifestOutcome } from './manifest-outcome.js';

export type ManifestDecision = 'no-release' | 'up-to-date' | 'update' | 'directive';

const sameId = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();

/**
 * Spec rules 1–3 and the directives (issue 18), for the entry the device gets (chooseEntry):
 * nothing → 204; a release the app already runs → up to date; a roll back to embedded for an app
 * that already runs its embedded update → up to date; otherwise the release or the directive.
 */
export function decideManifest(
  entry: Pick<ServedEntry, 'kind' | 'id'> | undefined,
  currentUpdateId: string | undefined,
  embeddedUpdateId?: string,
): ManifestDecision {
  if (!entry) return 'no-release';
  if (entry.kind === 'directive') return sameId(currentUpdateId, embeddedUpdateId) ? 'up-to-date' : 'directive';
  return sameId(currentUpdateId, entry.id) ? 'up-to-date' : 'update';
}

const EMPTY_TRACK: TrackEntry = { head: undefined, rollout: undefined, fallback: undefined };

const perNamespace = <T>(make: (ns: ManifestNamespace) => T): Record<ManifestNamespace, T> =>
  Object.fromEntries(MANIFEST_NAMESPACES.map((ns) => [ns, make(ns)])) as Record<ManifestNamespace, T>;

function servedOf(entry: StoredEntry, signatures: ManifestSignature[], fallback = false): ServedEntry {
  const kind = entry.kind;
  const id = kind === 'release' ? entry.release.id : entry.directive.id;
  const part = kind === 'release' ? 'manifest' : 'directive';
  const signed = perNamespace((ns) =>
    signedManifestOf(id, signatures.find((stored) => stored.namespace === ns)!, part),
  );
  const outcomes = perNamespace<ManifestOutcome>((ns) => ({
    kind: kind === 'release' ? 'update' : 'directive',
    signed: signed[ns],
    ...(fallback ? { fallback: true as const } : {}),
  }));
  return { kind, id, signed, outcomes };
}

export interface ManifestServiceDeps
  extends Pick<ManifestCacheOptions, 'ttlMs' | 'staleMs' | 'maxTracks' | 'maxBytes'> {
  store: Pick<ReleaseStore, 'timeline' | 'saveSignatures' | 'saveDirectiveSignatures' | 'timelinesOfRecentTracks'>;
  signer: ManifestSigner;
  /** Where manifests send devices for assets: a signature made under another base is made again. */
  urls: AssetUrls;
  log: FastifyBaseLogger;
  /** Counts answers served stale (stale-if-error). */
  metrics?: Pick<FerryMetrics, 'manifestServedStale'>;
}

/**
 * Answers manifest requests from memory. A release is signed once, at publish (`sign`, inside the
 * track lock), and its signed bytes are stored with it, so an instance that has just started, or
 * whose cache expired, reads them instead of signing while devices wait. A track with a rollout
 * keeps its fallback too, so choosing between them is a hash of the client id, not a read.
 */
export class ManifestService {
  private readonly cache: ManifestCache;
  /** What an up-to-date client gets, per namespace: a signed noUpdateAvailable for expo-updates. */
  private readonly upToDate: Record<ManifestNamespace, ManifestOutcome>;
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: ManifestServiceDeps) {
    this.cache = new ManifestCache({
      load: (track) => this.load(track),
      ttlMs: deps.ttlMs,
      staleMs: deps.staleMs,
      maxTracks: deps.maxTracks,
      maxBytes: deps.maxBytes,
      stale: new StaleManifestLog(deps.log, deps.staleMs ?? 0, () => deps.metrics?.manifestServedStale()),
    });
    // The spec's own client (ota-…) is answered 204 as its table says; expo-updates gets the
    // protocol's signed directive when it accepts multipart (decisions.md, "Release control").
    const noUpdate = signedManifestOf(
      'noUpdateAvailable',
      signBody(NO_UPDATE_AVAILABLE_BODY, 'expo', deps.signer),
      'directive',
    );
    this.upToDate = {
      ota: { kind: 'no-update', reason: 'up-to-date' },
      expo: { kind: 'no-update', reason: 'up-to-date', noUpdateAvailable: noUpdate },
    };
  }

  /** The outcome, reading the track when it is not cached (one read however many wait for it). */
  async resolve(request: ManifestRequest, ns: ManifestNamespace, clientId?: string): Promise<ManifestOutcome> {
    return this.outcome(await this.cache.entry(trackOf(request)), request, ns, clientId);
  }

  /**
   * The outcome when the track is cached, without a promise: the hot path. Undefined on a miss.
   * What the request resolved to before is kept on it (RememberedRequest): while that slot is
   * current and the entry gives every device the same answer, that is the outcome, with nothing
   * looked up. Past the TTL no hold serves: the lookup answers from the slot while it is reloaded
   * in the background, or while reloading fails, up to its stale-if-error limit.
   * `now` is performance.now(), the cache's clock (the fast path passes the request's start).
   */
  resolveCached(parsed: ValidManifestRequest, clientId?: string, now = performance.now()): ManifestOutcome | undefined {
    if (this.cache.holds(parsed, now)) {
      return parsed.outcome ?? this.outcome(parsed.slot!.entry, parsed.request, parsed.ns, clientId);
    }
    const slot = this.cache.slot(parsed.trackKey, now);
    if (!slot) {
      parsed.release();
      return undefined;
    }
    this.cache.keep(parsed, slot, now);
    const outcome = this.outcome(slot.entry, parsed.request, parsed.ns, clientId);
    parsed.outcome = choosesByClient(slot.entry) ? undefined : outcome;
    return outcome;
  }

  private outcome(
    entry: TrackEntry,
    request: ManifestRequest,
    ns: ManifestNamespace,
    clientId: string | undefined,
  ): ManifestOutcome {
    const chosen = chooseEntry(entry, clientId);
    switch (decideManifest(chosen, request.currentUpdateId, request.embeddedUpdateId)) {
      case 'no-release':
        // Nothing for this device: the track has no entry, or only a rollout it is outside of.
        return entry.head === undefined ? NO_RELEASE : OUTSIDE_ROLLOUT;
      case 'up-to-date':
        return this.upToDate[ns];
      default:
        return chosen!.outcomes[ns];
    }
  }

  /** The manifests of a release about to be stored, signed in every namespace. */
  sign(release: Release): ManifestSignature[] {
    return signRelease(release, this.deps.signer, this.deps.urls);
  }

  /** A roll back to embedded about to be stored, signed in every namespace; its commitTime is its createdAt. */
  signRollBackToEmbedded(createdAt: string): ManifestSignature[] {
    return signDirective(rollBackToEmbeddedBody(createdAt), this.deps.signer);
  }

  /** A release this instance just published to every device: its track answers with it at once. */
  releasePublished(release: Release, signatures: ManifestSignature[]): void {
    const current = signatures.filter((stored) => this.isCurrent(stored, 'release'));
    // Anything short of every namespace under this signer: the next request loads (and signs) it.
    if (current.length === MANIFEST_NAMESPACES.length) {
      const head = servedOf({ kind: 'release', release, signatures: current }, current);
      this.cache.prime(trackOf(release), { head, rollout: undefined, fallback: undefined });
    } else this.cache.invalidate(trackOf(release));
  }

  /** A track changed here or on another instance (a rollout, a directive): read it again on the next request. */
  trackChanged(track: Track): void {
    this.cache.invalidate(track);
  }

  /** Tracks it can answer without the database now (readiness while the database is down). */
  servableTracks(): number {
    return this.cache.servableTracks();
  }

  /**
   * Every half TTL, reloads in the background the tracks past their TTL that nobody asked for
   * (ManifestCache.refreshDue). Publishes reach the cache at once through notifications; the TTL
   * is the net for a missed one, and this keeps it a net: a track idle for an hour is still warm
   * when its next device asks. With stale-if-error off (0) a track is dropped at its TTL instead,
   * as that setting asks, and its next device waits for the load.
   */
  startRefreshing(): void {
    this.stopRefreshing();
    this.refreshTimer = setInterval(() => this.cache.refreshDue(), Math.max(1, this.deps.ttlMs / 2));
    this.refreshTimer.unref();
  }

  stopRefreshing(): void {
    clearInterval(this.refreshTimer);
    this.refreshTimer = undefined;
  }

  /** Notifications may have been missed: read every track again. */
  reset(): void {
    this.cache.clear();
  }

  /**
   * Loads the tracks published to most recently, as many as the cache holds, before the instance
   * answers: one that has just started (an autoscaler's, a restart) then serves a fleet's tracks
   * as fast as a warm one. An entry without a signature under the current key is left for its
   * first request, so a key rotation does not hold up start-up. Returns the tracks it keeps, most
   * recent first, with the id each serves (what manifest-warm-up.ts asks for).
   */
  async warm(limit: number): Promise<WarmedTrack[]> {
    const since = this.cache.generation;
    const found = await this.deps.store.timelinesOfRecentTracks(limit);
    const entries: Array<[Track, TrackEntry]> = [];
    for (const timeline of found) {
      const entry = this.servedIfSigned(timeline);
      const head = timeline.head;
      if (entry && head) entries.push([trackOf(head.kind === 'release' ? head.release : head.directive), entry]);
    }
    // The bounds keep the most recent (fill stores the oldest first).
    const kept = this.cache.fill(entries, since);
    return entries.slice(0, kept).map(([track, entry]) => ({ track, headId: entry.head!.id }));
  }

  /**
   * Whether a stored signature is one this instance serves: made under its key, and for a release
   * with its asset base URL (a directive lists no asset).
   */
  private isCurrent(stored: ManifestSignature, kind: StoredEntry['kind']): boolean {
    return (
      stored.certificate === this.deps.signer.identity &&
      (kind === 'directive' || stored.assetBaseUrl === this.deps.urls.base)
    );
  }

  private currentSignatures(entry: StoredEntry): ManifestSignature[] {
    return entry.signatures.filter((stored) => this.isCurrent(stored, entry.kind));
  }

  /** The timeline as served, if every entry is signed in every namespace under the current key. */
  private servedIfSigned(timeline: StoredTimeline): TrackEntry | undefined {
    const served = (entry: StoredEntry | undefined, fallback: boolean): ServedEntry | undefined | null => {
      if (!entry) return undefined;
      const current = this.currentSignatures(entry);
      return current.length === MANIFEST_NAMESPACES.length ? servedOf(entry, current, fallback) : null;
    };
    const head = served(timeline.head, false);
    const fallback = served(timeline.fallback, true);
    if (head === null || fallback === null) return undefined;
    return { head, rollout: timeline.rollout, fallback };
  }

  private async load(track: Track): Promise<TrackEntry> {
    const timeline = await this.deps.store.timeline(track);
    if (!timeline.head) return EMPTY_TRACK;
    const [head, fallback] = await Promise.all([
      this.signedEntry(timeline.head, false),
      this.signedEntry(timeline.fallback, true),
    ]);
    return { head, rollout: timeline.rollout, fallback };
  }

  /**
   * An entry with its signatures under the current key (and, for a release, asset base URL). Only
   * an entry stored before signing at publish, or signed under an earlier key or base, is signed
   * here: once, and stored, so no instance with the same configuration signs it again.
   */
  private async signedEntry(entry: StoredEntry | undefined, fallback: boolean): Promise<ServedEntry | undefined> {
    if (!entry) return undefined;
    const signatures = this.currentSignatures(entry);
    const unsigned = MANIFEST_NAMESPACES.filter((ns) => !signatures.some((stored) => stored.namespace === ns));
    if (unsigned.length === 0) return servedOf(entry, signatures, fallback);
    if (entry.kind === 'release') {
      const made = unsigned.map((ns) => signNamespace(entry.release, ns, this.deps.signer, this.deps.urls));
      await this.deps.store.saveSignatures(entry.release.id, made);
      signatures.push(...made);
    } else {
      const made = signDirective(rollBackToEmbeddedBody(entry.directive.createdAt), this.deps.signer);
      await this.deps.store.saveDirectiveSignatures(entry.directive.id, made);
      signatures.splice(0, signatures.length, ...made);
    }
    this.deps.log.info(
      {
        entryId: entry.kind === 'release' ? entry.release.id : entry.directive.id,
        kind: entry.kind,
        namespaces: unsigned,
      },
      `signed a stored ${entry.kind} under the current key${entry.kind === 'release' ? ' and asset base URL' : ''}`,
    );
    return servedOf(entry, signatures, fallback);
  }
}
