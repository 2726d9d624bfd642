import { type ManifestNamespace, type ManifestRequest, type Release, type Track, trackOf } from '@ferry/contracts';
import type { ManifestSigner } from '../../signing/manifest-signer.js';
import { assembleManifest } from './assemble-manifest.js';
import type { ManifestCache, TrackEntry } from './manifest-cache.js';
import { type SignedManifest, signManifest } from './manifest-response.js';

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

/** Answers manifest requests from the cache; signs a release's manifest once per namespace. */
export class ManifestService {
  constructor(private readonly deps: { cache: ManifestCache; signer: ManifestSigner }) {}

  async resolve(request: ManifestRequest, ns: ManifestNamespace): Promise<ManifestOutcome> {
    return this.resolveCached(request, ns) ?? this.outcome(await this.deps.cache.entry(trackOf(request)), request, ns);
  }

  /** The answer when the track is cached, without a promise: the hot path. Undefined on a miss. */
  resolveCached(request: ManifestRequest, ns: ManifestNamespace): ManifestOutcome | undefined {
    const entry = this.deps.cache.peek(trackOf(request));
    return entry && this.outcome(entry, request, ns);
  }

  private outcome(entry: TrackEntry, request: ManifestRequest, ns: ManifestNamespace): ManifestOutcome {
    const decision = decideManifest(entry.newest, request.currentUpdateId);
    if (decision !== 'update') return decision === 'no-release' ? NO_RELEASE : UP_TO_DATE;
    return { kind: 'update', signed: this.signed(entry, ns) };
  }

  private signed(entry: TrackEntry, ns: ManifestNamespace): SignedManifest {
    const release = entry.newest!;
    let signed = entry.signed[ns];
    if (!signed) {
      signed = signManifest(assembleManifest(release, ns), ns, this.deps.signer);
      entry.signed[ns] = signed;
    }
    return signed;
  }

  /** Every new release of a track (publish, rollback) passes here, in the process that stored it. */
  releasePublished(track: Track): void {
    this.deps.cache.invalidate(track);
  }
}
