import { randomUUID } from 'node:crypto';
import {
  type DirectiveRequest,
  type DirectiveView,
  type Release,
  type RolloutChange,
  type RolloutHealth,
  type RolloutView,
  type Track,
  trackOf,
} from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { NoRollout, ReleaseNotFound, RolloutEnded } from '../ota-errors.js';
import { nextCreatedAt } from '../release-service.js';
import type { LockedTrack, ReleaseStore, Rollout } from '../release-store.js';
import { rollbackRecord } from '../rollback.js';
import { type EntrySigner, insertRollBackToEmbedded, insertSignedRelease } from '../track-entries.js';

export interface RolloutServiceDeps {
  store: Pick<ReleaseStore, 'findById' | 'rollout' | 'withTrackLock'>;
  signer: EntrySigner;
  /** Devices that received a release and failed with it (the reports store). */
  health: (releaseId: string) => Promise<RolloutHealth>;
  /** After a committed change of a track: this instance's cache and the other instances read it again. */
  onTrackChanged: (track: Track) => void;
  /** Counts changes and halts (metrics); optional in unit tests. */
  onRolloutEvent?: (event: 'percent' | 'complete' | 'revert' | 'halt' | 'directive') => void;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/** What a rollout change did, for the audit event and the answer. */
type Outcome = { rollout: Rollout; track: Track };

const isOpen = (rollout: Rollout) => rollout.state === 'running' || rollout.state === 'halted';

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

  async view(releaseId: string): Promise<RolloutView> {
    const release = await this.release(releaseId);
    const rollout = await this.deps.store.rollout(releaseId);
    if (!rollout) throw new NoRollout(releaseId);
    return this.viewOf(release, rollout);
  }

  /** Changes the share of a running (or halted) rollout, completes it, or reverts it. */
  async change(releaseId: string, change: RolloutChange, actor: string): Promise<RolloutView> {
    const release = await this.release(releaseId);
    const track = trackOf(release);
    const outcome = await this.deps.store.withTrackLock(track, async (locked): Promise<Outcome> => {
      const rollout = await locked.rollout(releaseId);
      if (!rollout) throw new NoRollout(releaseId);
      if (!isOpen(rollout)) throw new RolloutEnded(releaseId, rollout.state, rollout.reason);
      const at = this.now();
      const next: Rollout =
        change.action === 'percent' && change.percent < 100
          ? { ...rollout, percent: change.percent, state: 'running', reason: null, updatedAt: at.toISOString() }
          : change.action === 'revert'
            ? { ...rollout, state: 'reverted', reason: `reverted by ${actor}`, updatedAt: at.toISOString() }
            : { ...rollout, percent: 100, state: 'complete', reason: null, updatedAt: at.toISOString() };
      await locked.updateRollout(releaseId, next);
      const restored = change.action === 'revert' ? await this.restoreFallback(locked, track, actor, change) : {};
      await locked.audit({
        type: change.action === 'revert' ? 'rollout.reverted' : 'rollout.changed',
        actor,
        track,
        releaseId,
        details: {
          action: change.action,
          from: { percent: rollout.percent, state: rollout.state },
          to: { percent: next.percent, state: next.state },
          runId: change.runId ?? null,
          ...restored,
        },
      });
      return { rollout: next, track };
    });
    this.deps.onTrackChanged(outcome.track);
    this.deps.onRolloutEvent?.(change.action === 'percent' && change.percent === 100 ? 'complete' : change.action);
    return this.viewOf(release, outcome.rollout);
  }

  /**
   * Stops a running rollout because its devices fail: nobody else gets the release. Devices that
   * run it keep it until the next entry of the track (`ferry rollout --revert` brings them back).
   * Returns false when the rollout was no longer running (another instance halted it first).
   */
  async halt(releaseId: string, reason: string, details: Record<string, unknown>): Promise<boolean> {
    const release = await this.deps.store.findById(releaseId);
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
      this.deps.onRolloutEvent?.('halt');
    }
    return halted;
  }

  /** Devices of the track go back to their build's embedded bundle until the next publish. */
  async rollBackToEmbedded(request: DirectiveRequest, actor: string): Promise<DirectiveView> {
    const track = trackOf(request);
    const directive = await this.deps.store.withTrackLock(track, async (locked) => {
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
        },
      });
      return created;
    });
    this.deps.onTrackChanged(track);
    this.deps.onRolloutEvent?.('directive');
    return directive;
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
  ): Promise<Record<string, unknown>> {
    const { fallback } = await locked.timeline();
    const createdAt = nextCreatedAt(this.now(), await locked.newestEntryAt());
    if (fallback?.kind === 'release') {
      const copy = rollbackRecord(fallback.release, {
        id: randomUUID(),
        createdAt,
        actor: change.actor ?? actor,
        runId: change.runId,
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

  private async release(releaseId: string): Promise<Release> {
    const release = await this.deps.store.findById(releaseId);
    if (!release) throw new ReleaseNotFound(releaseId);
    return release;
  }

  private async viewOf(release: Release, rollout: Rollout): Promise<RolloutView> {
    return {
      releaseId: release.id,
      ...trackOf(release),
      percent: rollout.percent,
      state: rollout.state,
      haltRule: rollout.haltRule,
      reason: rollout.reason,
      updatedAt: rollout.updatedAt,
      health: await this.deps.health(release.id),
    };
  }
}
