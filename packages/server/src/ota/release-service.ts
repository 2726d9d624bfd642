import { randomUUID } from 'node:crypto';
import {
  type BaselineResponse,
  type Release,
  type ReleasePayload,
  type ReleaseSummary,
  type RollbackRequest,
  type RollbackResponse,
  type Track,
  trackOf,
} from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { FerryMetrics } from '../metrics/ferry-metrics.js';
import type { ReleaseAssetCheck } from './assets/release-assets.js';
import type { GuardBlock } from './console/guard-block-audit.js';
import { evaluateGuard } from './guard.js';
import type { ManifestSignature } from './manifest/release-signatures.js';
import {
  AlreadyActive,
  NativeFingerprintChanged,
  NoEarlierRelease,
  ReleaseNotInTrack,
  TrackEmpty,
} from './ota-errors.js';
import type { LockedTrack, NewRelease, ReleaseStore } from './release-store.js';
import { decideRollback, type RollbackDecision, rollbackRecord } from './rollback.js';
import { insertSignedRelease } from './track-entries.js';

export const summarize = (release: Release): ReleaseSummary => ({
  id: release.id,
  channel: release.channel,
  platform: release.platform,
  runtimeVersion: release.runtimeVersion,
  createdAt: release.createdAt,
  updatePolicy: release.updatePolicy,
  fingerprint: release.metadata.fingerprint ?? null,
});

/**
 * createdAt orders a track (releases and directives alike), and expo-updates only applies an update
 * whose createdAt is later than the one it runs. A clock that steps backwards must not make a new
 * entry older than the newest one.
 */
export const nextCreatedAt = (now: Date, newest: Pick<Release, 'createdAt'> | Date | undefined): Date => {
  const at = newest instanceof Date ? newest.getTime() : newest ? Date.parse(newest.createdAt) : undefined;
  const floor = at === undefined ? Number.NEGATIVE_INFINITY : at + 1;
  return new Date(Math.max(now.getTime(), floor));
};

export interface ReleaseServiceDeps {
  store: ReleaseStore;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Refuses releases listing assets that are not stored; without it nothing is checked (unit tests). */
  assets?: ReleaseAssetCheck;
  /**
   * Signs a new release's manifests; they are stored with it in the same transaction. Without it
   * nothing is signed at publish (unit tests), and the manifest service signs on first demand.
   */
  sign?: (release: Release) => ManifestSignature[];
  /** Called after a release that reaches every device is committed, with its signed manifests, so caches can take it up. */
  onPublished?: (release: Release, signatures: ManifestSignature[]) => void;
  /** Called after any other change of a track is committed (a rollout publish): caches read it again. */
  onTrackChanged?: (track: Track) => void;
  /** Called after the guard refused a publish (its transaction rolled back); the console counts these. */
  onGuardBlocked?: (block: GuardBlock) => Promise<void>;
  /** Counts publishes, rollbacks and the guard's verdicts; optional in unit tests. */
  metrics?: Pick<FerryMetrics, 'published' | 'guardBlocked' | 'guardBypassed'>;
}

interface Stored {
  release: Release;
  signatures: ManifestSignature[];
}

export class ReleaseService {
  private readonly now: () => Date;
  constructor(private readonly deps: ReleaseServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  private insertSigned(locked: LockedTrack, release: NewRelease): Promise<Stored> {
    return insertSignedRelease(locked, release, { release: this.deps.sign });
  }

  /** Registers a release: the guard and the insert run as one atomic step per track. */
  async publish(payload: ReleasePayload, actor: string): Promise<ReleaseSummary> {
    const track = trackOf(payload);
    this.deps.assets?.ensureOwnUrls(payload);
    // Outside the track lock: lookups in object storage must not hold up other publishes.
    const stored = await this.deps.assets?.ensureStored(payload);
    await this.deps.assets?.ensureEncoded(payload);
    // 100 % is every device: no rollout to keep.
    const rollout = payload.rollout && payload.rollout.percent < 100 ? payload.rollout : undefined;
    let blocked: GuardBlock | undefined;
    const committed = await this.deps.store
      .withTrackLock(track, async (locked) => {
        // First: a garbage collection that has not marked these assets yet now waits for this commit.
        if (stored) await this.deps.assets?.ensureNotCollected(locked, stored);
        const newest = await locked.newest();
        // The guard's baseline is the newest release whatever its rollout: every device of the
        // runtime may run it, so its native side is the one the next release must match.
        const verdict = evaluateGuard(payload, newest && { id: newest.id, fingerprint: newest.metadata.fingerprint });
        if (verdict.kind === 'block') {
          this.deps.metrics?.guardBlocked();
          blocked = {
            track,
            actor,
            baselineReleaseId: verdict.baselineReleaseId,
            baselineFingerprint: verdict.storedFingerprint,
            fingerprint: verdict.candidateFingerprint,
          };
          throw new NativeFingerprintChanged(track, verdict);
        }
        const createdAt = nextCreatedAt(this.now(), await locked.newestEntryAt());
        const inserted = await this.insertSigned(locked, {
          id: randomUUID(),
          ...track,
          launchAsset: payload.launchAsset,
          assets: payload.assets,
          otaConfig: payload.otaConfig ?? null,
          updatePolicy: payload.updatePolicy ?? null,
          metadata: { ...payload.metadata, fingerprint: payload.fingerprint ?? null },
          createdAt,
        });
        const created = inserted.release;
        if (rollout) {
          await locked.insertRollout({
            releaseId: created.id,
            percent: rollout.percent,
            state: 'running',
            haltRule: rollout.haltRule ?? null,
            reason: null,
            updatedAt: createdAt.toISOString(),
          });
        }
        if (verdict.kind === 'bypass') {
          await locked.audit({
            type: 'guard.bypassed',
            actor,
            track,
            releaseId: created.id,
            details: {
              baselineReleaseId: newest?.id ?? null,
              baselineFingerprint: verdict.storedFingerprint,
              fingerprint: verdict.candidateFingerprint,
              wouldHaveBlocked: verdict.wouldHaveBlocked,
            },
          });
        }
        await locked.audit({
          type: 'release.created',
          actor,
          track,
          releaseId: created.id,
          details: {
            guard: verdict.kind === 'pass' ? verdict.reason : verdict.kind,
            baselineReleaseId: newest?.id ?? null,
            baselineFingerprint: newest?.metadata.fingerprint ?? null,
            fingerprint: payload.fingerprint ?? null,
            updatePolicy: payload.updatePolicy ?? null,
            metadata: payload.metadata ?? {},
            rollout: rollout ?? null,
          },
        });
        if (verdict.kind === 'bypass') {
          this.deps.log.warn(
            { track, releaseId: created.id, actor, wouldHaveBlocked: verdict.wouldHaveBlocked },
            'native-change guard bypassed with allowNativeChange',
          );
        }
        return { ...inserted, bypassed: verdict.kind === 'bypass' };
      })
      .catch(async (error: unknown) => {
        // After the refused publish rolled back: the block is kept on its own (the console counts them).
        if (blocked) await this.deps.onGuardBlocked?.(blocked);
        throw error;
      });
    if (rollout) this.deps.onTrackChanged?.(track);
    else this.deps.onPublished?.(committed.release, committed.signatures);
    this.deps.metrics?.published('publish');
    if (committed.bypassed) this.deps.metrics?.guardBypassed();
    return summarize(committed.release);
  }

  /** The record the guard would compare the next production release with. */
  async baseline(track: Track): Promise<BaselineResponse> {
    const newest = await this.deps.store.newest(track);
    if (!newest) {
      throw new TrackEmpty(track);
    }
    return { fingerprint: newest.metadata.fingerprint ?? null, releaseId: newest.id, createdAt: newest.createdAt };
  }

  /**
   * Republishes an earlier release of a track as a new, newest record (decisions.md §4). The copy
   * keeps the restored release's fingerprint, so the next publish is compared with it. Choosing the
   * source and inserting happen inside the track lock, so a concurrent publish cannot slip between.
   */
  async rollback(request: RollbackRequest, actor: string): Promise<RollbackResponse> {
    const track = trackOf(request);
    // Records never change once written, so the one `to` names can be read before taking the lock.
    const requested = request.to === undefined ? undefined : await this.deps.store.findById(request.to);
    const outcome = await this.deps.store.withTrackLock(track, async (locked) => {
      const decision = decideRollback({
        track,
        to: request.to,
        requested,
        recent: await locked.recent(2),
        embeddedIsServed: (await locked.timeline()).head?.kind === 'directive',
      });
      if (decision.kind !== 'restore') throw rollbackRefusal(decision, track);
      // Asset GC keeps only the newest releases of a track: an older one's assets may be gone, and
      // a manifest must never point devices at nothing (422 ASSET_MISSING, as for a publish).
      const stored = await this.deps.assets?.ensureStored(decision.source, locked);
      if (stored) await this.deps.assets?.ensureNotCollected(locked, stored);
      const inserted = await this.insertSigned(
        locked,
        rollbackRecord(decision.source, {
          id: randomUUID(),
          createdAt: nextCreatedAt(this.now(), await locked.newestEntryAt()),
          actor: request.actor,
          runId: request.runId,
        }),
      );
      const created = inserted.release;
      await locked.audit({
        type: 'release.rolled_back',
        actor,
        track,
        releaseId: created.id,
        details: {
          restoredReleaseId: decision.source.id,
          replacedReleaseId: decision.replaced.id,
          fingerprint: decision.source.metadata.fingerprint ?? null,
          replacedFingerprint: decision.replaced.metadata.fingerprint ?? null,
          updatePolicy: decision.source.updatePolicy,
          runId: request.runId ?? null,
        },
      });
      return { inserted, source: decision.source, replaced: decision.replaced };
    });
    this.deps.onPublished?.(outcome.inserted.release, outcome.inserted.signatures);
    this.deps.metrics?.published('rollback');
    return {
      release: summarize(outcome.inserted.release),
      restored: summarize(outcome.source),
      replaced: summarize(outcome.replaced),
    };
  }
}

function rollbackRefusal(decision: Exclude<RollbackDecision, { kind: 'restore' }>, track: Track): Error {
  switch (decision.kind) {
    case 'empty-track':
      return new TrackEmpty(track, '; there is nothing to roll back');
    case 'no-earlier-release':
      return new NoEarlierRelease(track, decision.newest.id);
    case 'not-in-track':
      return new ReleaseNotInTrack(track, decision.to);
    case 'already-active':
      return new AlreadyActive(track, decision.newest.id);
  }
}
