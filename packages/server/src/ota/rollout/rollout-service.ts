import { randomUUID } from 'node:crypto';
import type {
  DirectiveRequest,
  DirectiveView,
  GroupRolloutResponse,
  Release,
  RolloutChange,
  RolloutHealth,
  RolloutView,
  TrackDirectiveRequest,
} from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type Track, trackOf } from '../app-track.js';
import { NoRollout, ReleaseNotFound, RolloutEnded } from '../ota-errors.js';
import { eachPlatform, groupMembers } from '../release-groups.js';
import { nextCreatedAt } from '../release-service.js';
import type { LockedTrack, ReleaseStore, Rollout } from '../release-store.js';
import { rollbackRecord } from '../rollback.js';
import { type EntrySigner, insertRollBackToEmbedded, insertSignedRelease } from '../track-entries.js';

export interface RolloutServiceDeps {
  store: Pick<ReleaseStore, 'findById' | 'findByIdInAnyApp' | 'group' | 'rollout' | 'withTrackLock' | 'withTracksLock'>;
  signer: EntrySigner;
  /** Devices that received a release and failed with it (the reports store). */
  health: (releaseId: string) => Promise<RolloutHealth>;
  /** After a committed change of a track: this instance's cache and the other instances read it again. */
  onTrackChanged: (track: Track) => void;
  /** Counts changes and halts (metrics); optional in unit tests. */
  /** A change made, with the app of its track (metrics). */
  onRolloutEvent?: (event: RolloutChange['action'] | 'directive' | 'rule-halt', app: string) => void;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/** What a rollout change did, for the audit event and the answer; `changed` false when it already held. */
type Outcome = { rollout: Rollout; track: Track; changed: boolean };

const isOpen = (rollout: Rollout) => rollout.state === 'running' || rollout.state === 'halted';

/** The audit event of each change (a halt by hand is the same event as the rule's, with its actor). */
const AUDIT_TYPES: Record<RolloutChange['action'], string> = {
  percent: 'rollout.changed',
  complete: 'rollout.changed',
  halt: 'rollout.halted',
  resume: 'rollout.resumed',
  revert: 'rollout.reverted',
};

/**
 * An open (running or halted) rollout after a change; the same object when the state asked for
 * already holds (a halt of a halted rollout, a resume of a running one).
 */
export function nextRollout(rollout: Rollout, change: RolloutChange, actor: string, at: Date): Rollout {
  const updatedAt = at.toISOString();
  switch (change.action) {
    case 'percent':
      return change.percent < 100
        ? { ...rollout, percent: change.percent, state: 'running', reason: null, updatedAt }
        : { ...rollout, percent: 100, state: 'complete', reason: null, updatedAt };
    case 'complete':
      return { ...rollout, percent: 100, state: 'complete', reason: null, updatedAt };
    case 'halt':
      return rollout.state === 'halted'
        ? rollout
        : { ...rollout, state: 'halted', reason: `halted by ${actor}`, updatedAt };
    case 'resume':
      return rollout.state === 'running' ? rollout : { ...rollout, state: 'running', reason: null, updatedAt };
    case 'revert':
      return { ...rollout, state: 'reverted', reason: `reverted by ${actor}`, updatedAt };
  }
}

/**
 * Release control after publish: a rollout's share, completion, revert and halt, and rolling a
 * track back to its embedded bundle. Every change runs inside the track lock, writes an audit
 * event, and reaches every instance through `onTrackChanged`.
 */
export class RolloutService {
  private readonly now: () => Date;
  constructor(private readonly deps: RolloutServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async view(app: string, releaseId: string): Promise<RolloutView> {
    const release = await this.release(app, releaseId);
    const rollout = await this.deps.store.rollout(releaseId);
    if (!rollout) throw new NoRollout(releaseId);
    return this.viewOf(release, rollout);
  }

  /** Changes the share of a running (or halted) rollout, completes, halts, resumes or reverts it. */
  async change(app: string, releaseId: string, change: RolloutChange, actor: string): Promise<RolloutView> {
    const release = await this.release(app, releaseId);
    const track = trackOf(release);
    const outcome = await this.deps.store.withTrackLock(track, (locked) =>
      this.applyChange(locked, release, change, actor, {}),
    );
    this.afterChange([outcome], change);
    return this.viewOf(release, outcome.rollout);
  }

  /**
   * The same change to the rollout of every release of a group, in one transaction: when one
   * platform's rollout cannot take it (none, or ended), nothing changes on any platform and the
   * refusal names that platform. Audited once per platform, each event naming the group.
   */
  async changeGroup(app: string, groupId: string, change: RolloutChange, actor: string): Promise<GroupRolloutResponse> {
    const members = await groupMembers(this.deps.store, app, groupId);
    const fallbackGroup = randomUUID();
    const outcomes = await this.deps.store.withTracksLock(members.map(trackOf), (locked) =>
      eachPlatform(groupId, members, (member, index) =>
        this.applyChange(locked[index]!, member, change, actor, { groupId, fallbackGroup }),
      ),
    );
    this.afterChange(outcomes, change);
    return {
      groupId,
      rollouts: await Promise.all(members.map((member, index) => this.viewOf(member, outcomes[index]!.rollout))),
    };
  }

  /** Inside the track lock: the change, what a revert publishes again, and the audit event. */
  private async applyChange(
    locked: LockedTrack,
    release: Release,
    change: RolloutChange,
    actor: string,
    group: { groupId?: string; fallbackGroup?: string },
  ): Promise<Outcome> {
    const track = trackOf(release);
    const rollout = await locked.rollout(release.id);
    if (!rollout) throw new NoRollout(release.id);
    if (!isOpen(rollout)) throw new RolloutEnded(release.id, rollout.state, rollout.reason);
    const next = nextRollout(rollout, change, actor, this.now());
    // A halt of a halted rollout, a resume of a running one: the state asked for already holds.
    if (next === rollout) return { rollout, track, changed: false };
    await locked.updateRollout(release.id, next);
    const restored =
      change.action === 'revert'
        ? await this.restoreFallback(locked, track, actor, change, group.fallbackGroup ?? randomUUID())
        : {};
    await locked.audit({
      type: AUDIT_TYPES[change.action],
      actor,
      track,
      releaseId: release.id,
      details: {
        action: change.action,
        from: { percent: rollout.percent, state: rollout.state },
        to: { percent: next.percent, state: next.state },
        runId: change.runId ?? null,
        ...(group.groupId === undefined ? {} : { groupId: group.groupId }),
        ...restored,
      },
    });
    return { rollout: next, track, changed: true };
  }

  /** After the commit: every changed track is read again, here and on the other instances. */
  private afterChange(outcomes: Outcome[], change: RolloutChange): void {
    for (const outcome of outcomes) {
      if (!outcome.changed) continue;
      this.deps.onTrackChanged(outcome.track);
      this.deps.onRolloutEvent?.(
        change.action === 'percent' && change.percent === 100 ? 'complete' : change.action,
        outcome.track.app,
      );
    }
  }

  /**
   * Stops a running rollout because its devices fail: nobody else gets the release. Devices that
   * run it keep it until the next entry of the track (`ferry rollout --revert` brings them back).
   * Returns false when the rollout was no longer running (another instance halted it first).
   */
  async halt(releaseId: string, reason: string, details: Record<string, unknown>): Promise<boolean> {
    // The server's own action, on whatever app the release is of (device reports are per app).
    const release = await this.deps.store.findByIdInAnyApp(releaseId);
    if (!release) return false;
    const track = trackOf(release);
    const halted = await this.deps.store.withTrackLock(track, async (locked) => {
      const rollout = await locked.rollout(releaseId);
      if (rollout?.state !== 'running') return false;
      await locked.updateRollout(releaseId, {
        ...rollout,
        state: 'halted',
        reason,
        updatedAt: this.now().toISOString(),
      });
      await locked.audit({ type: 'rollout.halted', actor: 'ferry', track, releaseId, details: { reason, ...details } });
      return true;
    });
    if (halted) {
      this.deps.log.warn({ releaseId, track, reason }, 'rollout halted');
      this.deps.onTrackChanged(track);
      this.deps.onRolloutEvent?.('rule-halt', track.app);
    }
    return halted;
  }

  /** Devices of the track go back to their build's embedded bundle until the next publish. */
  async rollBackToEmbedded(app: string, request: TrackDirectiveRequest, actor: string): Promise<DirectiveView> {
    const track = trackOf({ ...request, app });
    const directive = await this.deps.store.withTrackLock(track, (locked) =>
      this.insertDirective(locked, track, request, actor, {}),
    );
    this.deps.onTrackChanged(track);
    this.deps.onRolloutEvent?.('directive', app);
    return directive;
  }

  /** The tracks of every release of a group go back to their embedded bundles, in one transaction. */
  async rollBackGroupToEmbedded(
    app: string,
    groupId: string,
    request: Pick<DirectiveRequest, 'actor' | 'runId'>,
    actor: string,
  ): Promise<{ groupId: string; directives: DirectiveView[] }> {
    const members = await groupMembers(this.deps.store, app, groupId);
    const tracks = members.map(trackOf);
    const directives = await this.deps.store.withTracksLock(tracks, (locked) =>
      eachPlatform(groupId, members, (_member, index) =>
        this.insertDirective(locked[index]!, tracks[index]!, request, actor, { groupId }),
      ),
    );
    for (const track of tracks) {
      this.deps.onTrackChanged(track);
      this.deps.onRolloutEvent?.('directive', app);
    }
    return { groupId, directives };
  }

  private async insertDirective(
    locked: LockedTrack,
    track: Track,
    request: Pick<DirectiveRequest, 'actor' | 'runId'>,
    actor: string,
    group: { groupId?: string },
  ): Promise<DirectiveView> {
    const createdAt = nextCreatedAt(this.now(), await locked.newestEntryAt());
    const created = await insertRollBackToEmbedded(
      locked,
      track,
      { actor: request.actor ?? actor, createdAt },
      this.deps.signer,
    );
    await locked.audit({
      type: 'directive.created',
      actor,
      track,
      releaseId: null,
      details: {
        directiveId: created.id,
        type: created.type,
        commitTime: created.createdAt,
        runId: request.runId ?? null,
        ...(group.groupId === undefined ? {} : { groupId: group.groupId }),
      },
    });
    return created;
  }

  /**
   * A revert brings every device back, including those that run the reverted release: the
   * fallback is published again as the newest entry (a copy of the release, as a rollback makes,
   * or a new roll back to embedded when the fallback was one, or when there is none).
   */
  private async restoreFallback(
    locked: LockedTrack,
    track: Track,
    actor: string,
    change: RolloutChange,
    groupId: string,
  ): Promise<Record<string, unknown>> {
    const { fallback } = await locked.timeline();
    const createdAt = nextCreatedAt(this.now(), await locked.newestEntryAt());
    if (fallback?.kind === 'release') {
      const copy = rollbackRecord(fallback.release, {
        id: randomUUID(),
        createdAt,
        actor: change.actor ?? actor,
        runId: change.runId,
        groupId,
      });
      const inserted = await insertSignedRelease(locked, copy, this.deps.signer);
      return { restoredReleaseId: fallback.release.id, newReleaseId: inserted.release.id };
    }
    const directive = await insertRollBackToEmbedded(
      locked,
      track,
      { actor: change.actor ?? actor, createdAt },
      this.deps.signer,
    );
    return { rolledBackToEmbedded: true, directiveId: directive.id };
  }

  private async release(app: string, releaseId: string): Promise<Release> {
    const release = await this.deps.store.findById(app, releaseId);
    if (!release) throw new ReleaseNotFound(releaseId);
    return release;
  }

  private async viewOf(release: Release, rollout: Rollout): Promise<RolloutView> {
    return {
      releaseId: release.id,
      channel: release.channel,
      platform: release.platform,
      runtimeVersion: release.runtimeVersion,
      percent: rollout.percent,
      state: rollout.state,
      haltRule: rollout.haltRule,
      reason: rollout.reason,
      updatedAt: rollout.updatedAt,
      health: await this.deps.health(release.id),
    };
  }
}
