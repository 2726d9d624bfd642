import { randomUUID } from 'node:crypto';
import type {
  BaselineResponse,
  GroupRollbackRequest,
  GroupRollbackResponse,
  PromoteRequest,
  PromoteResponse,
  Release,
  ReleasePayload,
  ReleaseSummary,
  TrackRollbackRequest,
  TrackRollbackResponse,
} from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { DomainError, InvalidInput } from '../errors/domain-error.js';
import type { FerryMetrics } from '../metrics/ferry-metrics.js';
import { type Track, trackOf } from './app-track.js';
import type { ReleaseAssetCheck, StoredAssets } from './assets/release-assets.js';
import type { GuardBlock } from './console/guard-block-audit.js';
import { evaluateGuard } from './guard.js';
import type { ManifestSignature } from './manifest/release-signatures.js';
import {
  AlreadyActive,
  GroupConflict,
  GroupSuperseded,
  NativeFingerprintChanged,
  NoEarlierRelease,
  ReleaseNotFound,
  ReleaseNotInTrack,
  TrackEmpty,
} from './ota-errors.js';
import { eachPlatform, groupMembers, isUniqueViolation } from './release-groups.js';
import type { LockedTrack, NewRelease, ReleaseStore } from './release-store.js';
import { decideRollback, type RollbackDecision, rollbackRecord } from './rollback.js';
import { type InsertedRelease, insertSignedRelease } from './track-entries.js';

export const summarize = (release: Release): ReleaseSummary => ({
  id: release.id,
  channel: release.channel,
  platform: release.platform,
  runtimeVersion: release.runtimeVersion,
  createdAt: release.createdAt,
  updatePolicy: release.updatePolicy,
  fingerprint: release.metadata.fingerprint ?? null,
  groupId: release.groupId,
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
  sign?: (release: Release) => ManifestSignature[] | Promise<ManifestSignature[]>;
  /** Called after a release that reaches every device is committed, with its signed manifests, so caches can take it up. */
  onPublished?: (release: Release, signatures: ManifestSignature[]) => void;
  /** Called after any other change of a track is committed (a rollout publish): caches read it again. */
  onTrackChanged?: (track: Track) => void;
  /** Called after the guard refused a publish (its transaction rolled back); the console counts these. */
  onGuardBlocked?: (block: GuardBlock) => Promise<void>;
  /** Counts publishes, rollbacks and the guard's verdicts; optional in unit tests. */
  metrics?: Pick<FerryMetrics, 'published' | 'guardBlocked' | 'guardBypassed'>;
}

export class ReleaseService {
  private readonly now: () => Date;
  constructor(private readonly deps: ReleaseServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  private insertSigned(locked: LockedTrack, release: NewRelease): Promise<InsertedRelease> {
    return insertSignedRelease(locked, release, { release: this.deps.sign });
  }

  /** Registers a release: the guard and the insert run as one atomic step per track. */
  async publish(app: string, unscoped: ReleasePayload, actor: string): Promise<ReleaseSummary> {
    const payload = { ...unscoped, app };
    const track = trackOf(payload);
    this.deps.assets?.ensureOwnUrls(payload);
    // Outside the track lock: lookups in object storage must not hold up other publishes.
    const stored = await this.deps.assets?.ensureStored(payload);
    await this.deps.assets?.ensureEncoded(payload);
    const groupId = payload.groupId ?? randomUUID();
    const blocked: GuardBlock[] = [];
    const committed = await this.deps.store
      .withTrackLock(track, async (locked) => {
        // Another release of a group names the same channel and another platform; the unique index
        // (group_id, platform) holds the second rule against a race between two tracks.
        if (payload.groupId !== undefined) await checkGroup(locked, payload);
        return this.guardedInsert(locked, payload, actor, {
          groupId,
          stored,
          blocked,
          audit: { type: 'release.created' },
        });
      })
      .catch(async (error: unknown) => {
        // After the refused publish rolled back: the block is kept on its own (the console counts them).
        for (const block of blocked) await this.deps.onGuardBlocked?.(block);
        if (isUniqueViolation(error)) {
          throw new GroupConflict(groupId, `already has a ${payload.platform} release`, { platform: payload.platform });
        }
        throw error;
      });
    this.announce(committed);
    this.deps.metrics?.published('publish', app);
    return summarize(committed.release);
  }

  /**
   * Republishes a release, or every release of a group, to another channel: for each, a new release
   * of the target channel's track with the source's content, through the guard as a publish to that
   * channel. Assets are copied to the target channel first (outside any lock); then every target
   * track is locked in one transaction, so a group promotes on every platform or on none.
   */
  async promote(app: string, request: PromoteRequest, actor: string): Promise<PromoteResponse> {
    const sources =
      request.groupId !== undefined
        ? await groupMembers(this.deps.store, app, request.groupId)
        : [await this.releaseById(app, request.releaseId!)];
    const sourceGroupId = request.groupId ?? sources[0]!.groupId;
    const sameChannel = sources.find((source) => source.channel === request.toChannel);
    if (sameChannel) {
      throw new InvalidInput([
        {
          path: 'body.toChannel',
          message: `release ${sameChannel.id} is already on ${request.toChannel}: promote to another channel`,
        },
      ]);
    }
    const groupId = randomUUID();
    const rollout = request.rollout && request.rollout.percent < 100 ? request.rollout : undefined;
    const prepared = await eachPlatform(request.groupId, sources, async (source) => {
      const urls = (await this.deps.assets?.ensureCopied(source, request.toChannel)) ?? new Map<string, string>();
      const payload = { ...promotedPayload(source, request, urls, rollout), app };
      const stored = await this.deps.assets?.ensureStored(payload);
      await this.deps.assets?.ensureEncoded(payload);
      return { source, payload, stored };
    });
    const blocked: GuardBlock[] = [];
    const committed = await this.deps.store
      .withTracksLock(
        prepared.map(({ payload }) => trackOf(payload)),
        (locked) =>
          eachPlatform(request.groupId, sources, (source, index) => {
            const { payload, stored } = prepared[index]!;
            return this.guardedInsert(locked[index]!, payload, actor, {
              groupId,
              stored,
              blocked,
              promotedFrom: source.id,
              audit: {
                type: 'release.promoted',
                details: {
                  sourceReleaseId: source.id,
                  sourceChannel: source.channel,
                  toChannel: request.toChannel,
                  sourceGroupId: source.groupId,
                  runId: request.runId ?? null,
                },
              },
            });
          }),
      )
      .catch(async (error: unknown) => {
        for (const block of blocked) await this.deps.onGuardBlocked?.(block);
        throw error;
      });
    for (const stored of committed) {
      this.announce(stored);
      this.deps.metrics?.published('promote', app);
    }
    return {
      groupId,
      sourceGroupId,
      promotions: committed.map((stored, index) => ({
        release: summarize(stored.release),
        source: summarize(sources[index]!),
      })),
    };
  }

  /** What devices and caches learn once a new release committed. */
  private announce(committed: GuardedInsert): void {
    if (committed.staged) this.deps.onTrackChanged?.(trackOf(committed.release));
    else this.deps.onPublished?.(committed.release, committed.signatures);
    if (committed.bypassed) this.deps.metrics?.guardBypassed();
  }

  /**
   * Inside the track lock: the guard, then the release, its rollout and its audit events. A block
   * is counted and recorded in `blocked` (kept once the transaction rolled back) and thrown.
   */
  private async guardedInsert(
    locked: LockedTrack,
    payload: ReleasePayload & { app: string },
    actor: string,
    entry: {
      groupId: string;
      stored: StoredAssets | undefined;
      blocked: GuardBlock[];
      promotedFrom?: string;
      audit: { type: 'release.created' | 'release.promoted'; details?: Record<string, unknown> };
    },
  ): Promise<GuardedInsert> {
    const track = trackOf(payload);
    // First: a garbage collection that has not marked these assets yet now waits for this commit.
    if (entry.stored) await this.deps.assets?.ensureNotCollected(locked, entry.stored);
    const newest = await locked.newest();
    // The guard's baseline is the newest release whatever its rollout: every device of the
    // runtime may run it, so its native side is the one the next release must match.
    const verdict = evaluateGuard(payload, newest && { id: newest.id, fingerprint: newest.metadata.fingerprint });
    if (verdict.kind === 'block') {
      this.deps.metrics?.guardBlocked();
      entry.blocked.push({
        track,
        actor,
        baselineReleaseId: verdict.baselineReleaseId,
        baselineFingerprint: verdict.storedFingerprint,
        fingerprint: verdict.candidateFingerprint,
      });
      throw new NativeFingerprintChanged(track, verdict);
    }
    // 100 % is every device: no rollout to keep.
    const rollout = payload.rollout && payload.rollout.percent < 100 ? payload.rollout : undefined;
    const createdAt = nextCreatedAt(this.now(), await locked.newestEntryAt());
    const inserted = await this.insertSigned(locked, {
      id: randomUUID(),
      ...track,
      launchAsset: payload.launchAsset,
      assets: payload.assets,
      otaConfig: payload.otaConfig ?? null,
      updatePolicy: payload.updatePolicy ?? null,
      metadata: {
        ...payload.metadata,
        fingerprint: payload.fingerprint ?? null,
        ...(entry.promotedFrom === undefined ? {} : { promotedFrom: entry.promotedFrom }),
      },
      createdAt,
      groupId: entry.groupId,
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
          groupId: entry.groupId,
        },
      });
    }
    await locked.audit({
      type: entry.audit.type,
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
        groupId: entry.groupId,
        ...entry.audit.details,
      },
    });
    if (verdict.kind === 'bypass') {
      this.deps.log.warn(
        { track, releaseId: created.id, actor, wouldHaveBlocked: verdict.wouldHaveBlocked },
        'native-change guard bypassed with allowNativeChange',
      );
    }
    return { ...inserted, bypassed: verdict.kind === 'bypass', staged: rollout !== undefined };
  }

  private async releaseById(app: string, id: string): Promise<Release> {
    const release = await this.deps.store.findById(app, id);
    if (!release) throw new ReleaseNotFound(id);
    return release;
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
  async rollback(app: string, request: TrackRollbackRequest, actor: string): Promise<TrackRollbackResponse> {
    const track = trackOf({ ...request, app });
    // Records never change once written, so the one `to` names can be read before taking the lock.
    const requested = request.to === undefined ? undefined : await this.deps.store.findById(app, request.to);
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
          groupId: randomUUID(),
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
    this.deps.metrics?.published('rollback', app);
    return {
      release: summarize(outcome.inserted.release),
      restored: summarize(outcome.source),
      replaced: summarize(outcome.replaced),
    };
  }

  /**
   * Rolls back every platform of a release group in one transaction: each of its releases must
   * still be the newest of its track (else a later publish would be undone), and each track gets
   * the release before it, or the release of `toGroupId` of the same platform, as a new record.
   * The new records form a group of their own. One platform refused: nothing changes anywhere.
   */
  async rollbackGroup(app: string, request: GroupRollbackRequest, actor: string): Promise<GroupRollbackResponse> {
    const members = await groupMembers(this.deps.store, app, request.groupId);
    const targets =
      request.toGroupId === undefined ? undefined : await groupMembers(this.deps.store, app, request.toGroupId);
    const groupId = randomUUID();
    const outcomes = await this.deps.store.withTracksLock(members.map(trackOf), (locked) =>
      eachPlatform(request.groupId, members, async (member, index) => {
        const track = trackOf(member);
        const lockedTrack = locked[index]!;
        const requested = targets?.find((target) => target.platform === member.platform);
        if (targets && !requested) {
          throw new DomainError(
            'not-found',
            'NOT_FOUND',
            `Release group ${request.toGroupId} has no ${member.platform} release to roll back to.`,
            { toGroupId: request.toGroupId, platform: member.platform },
          );
        }
        const recent = await lockedTrack.recent(2);
        if (recent[0]?.id !== member.id) throw new GroupSuperseded(request.groupId, member, recent[0]?.id ?? '');
        const decision = decideRollback({
          track,
          to: requested?.id,
          requested,
          recent,
          embeddedIsServed: (await lockedTrack.timeline()).head?.kind === 'directive',
        });
        if (decision.kind !== 'restore') throw rollbackRefusal(decision, track);
        const stored = await this.deps.assets?.ensureStored(decision.source, lockedTrack);
        if (stored) await this.deps.assets?.ensureNotCollected(lockedTrack, stored);
        const inserted = await this.insertSigned(
          lockedTrack,
          rollbackRecord(decision.source, {
            id: randomUUID(),
            createdAt: nextCreatedAt(this.now(), await lockedTrack.newestEntryAt()),
            actor: request.actor,
            runId: request.runId,
            groupId,
          }),
        );
        await lockedTrack.audit({
          type: 'release.rolled_back',
          actor,
          track,
          releaseId: inserted.release.id,
          details: {
            restoredReleaseId: decision.source.id,
            replacedReleaseId: decision.replaced.id,
            fingerprint: decision.source.metadata.fingerprint ?? null,
            replacedFingerprint: decision.replaced.metadata.fingerprint ?? null,
            updatePolicy: decision.source.updatePolicy,
            runId: request.runId ?? null,
            groupId,
            rolledBackGroupId: request.groupId,
          },
        });
        return { inserted, source: decision.source, replaced: decision.replaced };
      }),
    );
    for (const outcome of outcomes) {
      this.deps.onPublished?.(outcome.inserted.release, outcome.inserted.signatures);
      this.deps.metrics?.published('rollback', app);
    }
    return {
      rolledBackGroupId: request.groupId,
      groupId,
      rollbacks: outcomes.map((outcome) => ({
        platform: outcome.inserted.release.platform,
        release: summarize(outcome.inserted.release),
        restored: summarize(outcome.source),
        replaced: summarize(outcome.replaced),
      })),
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

/** A new release of a group: the group is of its channel and has no release of this platform yet. */
async function checkGroup(locked: LockedTrack, payload: ReleasePayload & { groupId?: string }): Promise<void> {
  const groupId = payload.groupId!;
  for (const member of await locked.group(groupId)) {
    if (member.platform === payload.platform) {
      throw new GroupConflict(groupId, `already has a ${member.platform} release (${member.id})`, {
        platform: member.platform,
        releaseId: member.id,
      });
    }
    if (member.channel !== payload.channel) {
      throw new GroupConflict(groupId, `holds releases of the ${member.channel} channel, not ${payload.channel}`, {
        channel: member.channel,
        releaseId: member.id,
      });
    }
  }
}

/**
 * What a promotion publishes: the source's content on the target channel, its assets at the URLs
 * Ferry serves them at there, and the source's metadata with the promoter as actor.
 */
function promotedPayload(
  source: Release,
  request: PromoteRequest,
  urls: Map<string, string>,
  rollout: PromoteRequest['rollout'],
): ReleasePayload {
  const at = <A extends { hash: string; url: string }>(asset: A): A => ({
    ...asset,
    url: urls.get(asset.hash) ?? asset.url,
  });
  const {
    fingerprint: _fingerprint,
    rolledBackFrom: _rolledBackFrom,
    promotedFrom: _promotedFrom,
    ...metadata
  } = source.metadata;
  return {
    channel: request.toChannel,
    platform: source.platform,
    runtimeVersion: source.runtimeVersion,
    launchAsset: at(source.launchAsset),
    assets: source.assets.map(at),
    otaConfig: source.otaConfig,
    updatePolicy: source.updatePolicy,
    fingerprint: source.metadata.fingerprint ?? null,
    ...(request.allowNativeChange ? { allowNativeChange: true } : {}),
    metadata: {
      ...metadata,
      actor: request.actor ?? metadata.actor,
      ...(request.runId === undefined ? {} : { runId: request.runId }),
    },
    ...(rollout ? { rollout } : {}),
  } as ReleasePayload;
}

/** A release the guard let in, with what its commit must announce. */
interface GuardedInsert extends InsertedRelease {
  bypassed: boolean;
  /** Published with a rollout: caches read the track again (its fallback matters). */
  staged: boolean;
}
