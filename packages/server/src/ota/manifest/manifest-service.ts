import { DEFAULT_APP, MANIFEST_NAMESPACES, type ManifestNamespace, type Release } from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { appNotFound } from '../../auth/operator-access.js';
import type { FerryMetrics } from '../../metrics/ferry-metrics.js';
import type { ManifestSigner } from '../../signing/manifest-signer.js';
import { type Track, trackOf } from '../app-track.js';
import type { AssetUrls } from '../assets/asset-urls.js';
import type { ReleaseStore, StoredEntry, StoredTimeline } from '../release-store.js';
import { entryAnswers, type ManifestAnswers, upToDateAnswers } from './manifest-answer.js';
import { ManifestCache, type ManifestCacheOptions } from './manifest-cache.js';
import type { ServedEntry, TrackEntry } from './manifest-decision.js';
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
  return { kind, id, answers: entryAnswers(signed, kind, fallback) };
}

/**
 * The signer of each app (apps/app-signers.ts): `loaded` answers at once for an app already read,
 * `load` reads one (undefined: no such app). A track's app is loaded before its track is.
 */
export interface AppSignerSource {
  loaded(app: string): ManifestSigner | undefined;
  load(app: string): Promise<ManifestSigner | undefined>;
}

/** Only the default app, signing with the configured key: a server without the app registry. */
export const defaultAppSigner = (signer: ManifestSigner): AppSignerSource => ({
  loaded: (app) => (app === DEFAULT_APP ? signer : undefined),
  load: async (app) => (app === DEFAULT_APP ? signer : undefined),
});

export interface ManifestServiceDeps
  extends Pick<ManifestCacheOptions, 'ttlMs' | 'staleMs' | 'maxTracks' | 'maxBytes'> {
  store: Pick<ReleaseStore, 'timeline' | 'saveSignatures' | 'saveDirectiveSignatures' | 'timelinesOfRecentTracks'>;
  signers: AppSignerSource;
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
 * keeps its fallback too, so choosing between them is a hash of the client id, not a read. Every
 * answer of a loaded track is made when it is loaded (manifest-answer.ts).
 */
export class ManifestService {
  private readonly cache: ManifestCache;
  /** What an up-to-date client of each app gets (manifest-answer.ts, upToDateAnswers), under its signer's identity. */
  private readonly upToDates = new Map<string, { identity: string; answers: ManifestAnswers }>();
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
  }

  /**
   * What an up-to-date client of the app gets; made once per signing key. Undefined only for an
   * app whose signer is not loaded, which no track in memory can be of.
   */
  readonly upToDateOf = (app: string): ManifestAnswers | undefined => {
    const kept = this.upToDates.get(app);
    const signer = this.deps.signers.loaded(app);
    if (!signer) return undefined;
    if (kept?.identity === signer.identity) return kept.answers;
    const answers = upToDateAnswers(
      signedManifestOf('noUpdateAvailable', signBody(NO_UPDATE_AVAILABLE_BODY, 'expo', signer), 'directive'),
    );
    this.upToDates.set(app, { identity: signer.identity, answers });
    return answers;
  };

  /**
   * The signer of an app, loaded (or, past its row's TTL, checked against the row: loads and
   * publishes follow a key rotated elsewhere); 404 APP_NOT_FOUND when there is no such app.
   */
  private async signerOf(app: string): Promise<ManifestSigner> {
    const signer = await this.deps.signers.load(app);
    if (!signer) throw appNotFound(app);
    return signer;
  }

  /**
   * A track in memory by its key (trackKey), without waiting: past its TTL the lookup starts a
   * reload in the background and still answers, up to its stale-if-error limit.
   */
  readonly cachedTrack = (key: string): TrackEntry | undefined => this.cache.slot(key)?.entry;

  /** A track from memory, or read once however many requests wait for it. */
  track(track: Track): Promise<TrackEntry> {
    return this.cache.entry(track);
  }

  /** The manifests of a release about to be stored, signed in every namespace with its app's key. */
  async sign(release: Release): Promise<ManifestSignature[]> {
    return signRelease(release, await this.signerOf(release.app), this.deps.urls);
  }

  /** A roll back to embedded about to be stored, signed in every namespace; its commitTime is its createdAt. */
  async signRollBackToEmbedded(app: string, createdAt: string): Promise<ManifestSignature[]> {
    return signDirective(rollBackToEmbeddedBody(createdAt), await this.signerOf(app));
  }

  /** An app's key changed (a rotation, here or on another instance): its tracks are read and signed again. */
  appChanged(app: string): void {
    this.upToDates.delete(app);
    this.cache.invalidateWhere((track) => track.app === app);
  }

  /** A release this instance just published to every device: its track answers with it at once. */
  releasePublished(release: Release, signatures: ManifestSignature[]): void {
    const current = signatures.filter((stored) => this.isCurrent(release.app, stored, 'release'));
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
      const head = timeline.head;
      if (!head) continue;
      const track = trackOf(head.kind === 'release' ? head.release : head.directive);
      // An app that is gone (or whose key cannot be opened) loads on its first request instead.
      if (!(await this.deps.signers.load(track.app).catch(() => undefined))) continue;
      const entry = this.servedIfSigned(track.app, timeline);
      if (entry) entries.push([track, entry]);
    }
    // The bounds keep the most recent (fill stores the oldest first).
    const kept = this.cache.fill(entries, since);
    return entries.slice(0, kept).map(([track, entry]) => ({ track, headId: entry.head!.id }));
  }

  /**
   * Whether a stored signature is one this instance serves: made under its key, and for a release
   * with its asset base URL (a directive lists no asset).
   */
  private isCurrent(app: string, stored: ManifestSignature, kind: StoredEntry['kind']): boolean {
    return (
      stored.certificate === this.deps.signers.loaded(app)?.identity &&
      (kind === 'directive' || stored.assetBaseUrl === this.deps.urls.base)
    );
  }

  private currentSignatures(app: string, entry: StoredEntry): ManifestSignature[] {
    return entry.signatures.filter((stored) => this.isCurrent(app, stored, entry.kind));
  }

  /** The timeline as served, if every entry is signed in every namespace under the current key. */
  private servedIfSigned(app: string, timeline: StoredTimeline): TrackEntry | undefined {
    const served = (entry: StoredEntry | undefined, fallback: boolean): ServedEntry | undefined | null => {
      if (!entry) return undefined;
      const current = this.currentSignatures(app, entry);
      return current.length === MANIFEST_NAMESPACES.length ? servedOf(entry, current, fallback) : null;
    };
    const head = served(timeline.head, false);
    const fallback = served(timeline.fallback, true);
    if (head === null || fallback === null) return undefined;
    return { head, rollout: timeline.rollout, fallback };
  }

  private async load(track: Track): Promise<TrackEntry> {
    // First the app: an unknown app is 404 (never an empty track of it), and its signer is then loaded.
    await this.signerOf(track.app);
    const timeline = await this.deps.store.timeline(track);
    if (!timeline.head) return EMPTY_TRACK;
    const [head, fallback] = await Promise.all([
      this.signedEntry(track.app, timeline.head, false),
      this.signedEntry(track.app, timeline.fallback, true),
    ]);
    return { head, rollout: timeline.rollout, fallback };
  }

  /**
   * An entry with its signatures under the current key (and, for a release, asset base URL). Only
   * an entry stored before signing at publish, or signed under an earlier key or base, is signed
   * here: once, and stored, so no instance with the same configuration signs it again.
   */
  private async signedEntry(
    app: string,
    entry: StoredEntry | undefined,
    fallback: boolean,
  ): Promise<ServedEntry | undefined> {
    if (!entry) return undefined;
    const signer = await this.signerOf(app);
    const signatures = this.currentSignatures(app, entry);
    const unsigned = MANIFEST_NAMESPACES.filter((ns) => !signatures.some((stored) => stored.namespace === ns));
    if (unsigned.length === 0) return servedOf(entry, signatures, fallback);
    if (entry.kind === 'release') {
      const made = unsigned.map((ns) => signNamespace(entry.release, ns, signer, this.deps.urls));
      await this.deps.store.saveSignatures(entry.release.id, made);
      signatures.push(...made);
    } else {
      const made = signDirective(rollBackToEmbeddedBody(entry.directive.createdAt), signer);
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
