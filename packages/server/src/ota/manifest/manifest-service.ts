import {
  MANIFEST_NAMESPACES,
  type ManifestNamespace,
  type ManifestRequest,
  type Release,
  type Track,
  trackOf,
} from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ManifestSigner } from '../../signing/manifest-signer.js';
import type { ReleaseStore } from '../release-store.js';
import { ManifestCache, type ManifestCacheOptions, type TrackEntry } from './manifest-cache.js';
import { type SignedManifest, signedManifestOf } from './manifest-response.js';
import { type ManifestSignature, signNamespace, signRelease } from './release-signatures.js';

export type ManifestDecision = 'no-release' | 'up-to-date' | 'update';

/** Spec rules 1–3: no release → 204; the app already runs the newest → 204; else the manifest. */
export function decideManifest(
  newest: Pick<Release, 'id'> | undefined,
  currentUpdateId: string | undefined,
): ManifestDecision {
  if (!newest) return 'no-release';
  if (currentUpdateId !== undefined && currentUpdateId.toLowerCase() === newest.id.toLowerCase()) return 'up-to-date';
  return 'update';
}

export type ManifestOutcome =
  | { kind: 'no-update'; reason: 'no-release' | 'up-to-date' }
  | { kind: 'update'; signed: SignedManifest };

const NO_RELEASE: ManifestOutcome = { kind: 'no-update', reason: 'no-release' };
const UP_TO_DATE: ManifestOutcome = { kind: 'no-update', reason: 'up-to-date' };
const EMPTY_TRACK: TrackEntry = { newest: undefined, signed: undefined };

function entryOf(release: Release, signatures: ManifestSignature[]): TrackEntry {
  const signed = Object.fromEntries(
    signatures.map((stored) => [stored.namespace, signedManifestOf(release.id, stored)]),
  ) as Record<ManifestNamespace, SignedManifest>;
  return { newest: release, signed };
}

export interface ManifestServiceDeps extends Pick<ManifestCacheOptions, 'ttlMs' | 'maxTracks' | 'maxBytes'> {
  store: Pick<ReleaseStore, 'newestSigned' | 'saveSignatures' | 'newestSignedOfRecentTracks'>;
  signer: ManifestSigner;
  log: FastifyBaseLogger;
}

/**
 * Answers manifest requests from memory. A release is signed once, at publish (`sign`, inside the
 * track lock), and its signed bytes are stored with it, so an instance that has just started, or
 * whose cache expired, reads them instead of signing while devices wait.
 */
export class ManifestService {
  private readonly cache: ManifestCache;

  constructor(private readonly deps: ManifestServiceDeps) {
    this.cache = new ManifestCache({
      load: (track) => this.load(track),
      ttlMs: deps.ttlMs,
      maxTracks: deps.maxTracks,
      maxBytes: deps.maxBytes,
    });
  }

  async resolve(request: ManifestRequest, ns: ManifestNamespace): Promise<ManifestOutcome> {
    return this.resolveCached(request, ns) ?? this.outcome(await this.cache.entry(trackOf(request)), request, ns);
  }

  /** The answer when the track is cached, without a promise: the hot path. Undefined on a miss. */
  resolveCached(request: ManifestRequest, ns: ManifestNamespace): ManifestOutcome | undefined {
    const entry = this.cache.peek(trackOf(request));
    return entry && this.outcome(entry, request, ns);
  }

  private outcome(entry: TrackEntry, request: ManifestRequest, ns: ManifestNamespace): ManifestOutcome {
    const decision = decideManifest(entry.newest, request.currentUpdateId);
    if (decision !== 'update') return decision === 'no-release' ? NO_RELEASE : UP_TO_DATE;
    return { kind: 'update', signed: entry.signed![ns] };
  }

  /** The manifests of a release about to be stored, signed in every namespace. */
  sign(release: Release): ManifestSignature[] {
    return signRelease(release, this.deps.signer);
  }

  /** A release this instance just stored (publish, rollback): its track answers with it at once. */
  releasePublished(release: Release, signatures: ManifestSignature[]): void {
    const current = signatures.filter((stored) => stored.certificate === this.deps.signer.identity);
    // Anything short of every namespace under this signer: the next request loads (and signs) it.
    if (current.length === MANIFEST_NAMESPACES.length) this.cache.prime(trackOf(release), entryOf(release, current));
    else this.cache.invalidate(trackOf(release));
  }

  /** Another instance changed a track: read it again on the next request. */
  trackChanged(track: Track): void {
    this.cache.invalidate(track);
  }

  /** Notifications may have been missed: read every track again. */
  reset(): void {
    this.cache.clear();
  }

  /**
   * Loads the tracks published to most recently, as many as the cache holds, before the instance
   * answers: one that has just started (an autoscaler's, a restart) then serves a fleet's tracks
   * as fast as a warm one. A release without a signature under the current key is left for its
   * first request, so a key rotation does not hold up start-up. Returns how many tracks it keeps.
   */
  async warm(limit: number): Promise<number> {
    const since = this.cache.generation;
    const found = await this.deps.store.newestSignedOfRecentTracks(limit);
    const entries: Array<[Track, TrackEntry]> = [];
    for (const { release, signatures } of found) {
      const current = signatures.filter((stored) => stored.certificate === this.deps.signer.identity);
      if (current.length === MANIFEST_NAMESPACES.length) entries.push([trackOf(release), entryOf(release, current)]);
    }
    return this.cache.fill(entries, since);
  }

  private async load(track: Track): Promise<TrackEntry> {
    const found = await this.deps.store.newestSigned(track);
    if (!found) return EMPTY_TRACK;
    const { release } = found;
    const signatures = found.signatures.filter((stored) => stored.certificate === this.deps.signer.identity);
    const unsigned = MANIFEST_NAMESPACES.filter((ns) => !signatures.some((stored) => stored.namespace === ns));
    if (unsigned.length > 0) {
      // Only a release stored before signing at publish, or one signed under an earlier key: signed
      // once, here, and stored, so neither this instance nor any other signs it again.
      const made = unsigned.map((ns) => signNamespace(release, ns, this.deps.signer));
      await this.deps.store.saveSignatures(release.id, made);
      this.deps.log.info(
        { releaseId: release.id, namespaces: unsigned },
        'signed a stored release under the current key',
      );
      signatures.push(...made);
    }
    return entryOf(release, signatures);
  }
}
