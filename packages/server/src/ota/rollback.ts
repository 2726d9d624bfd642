import type { Release } from '@ferry/contracts';
import type { Track } from './app-track.js';
import type { NewRelease } from './release-store.js';

export interface RollbackInput {
  track: Track;
  /** The release the caller asked for, by id; undefined when `to` was not given. */
  to?: string;
  /** The release `to` names, looked up by id (undefined when no such release exists). */
  requested?: Release;
  /** The newest releases of the track, newest first (at least two when the track has them). */
  recent: Release[];
  /**
   * The track serves a roll back to embedded made after its newest release: that release is then
   * not active, and may be restored like any earlier one.
   */
  embeddedIsServed?: boolean;
}

export type RollbackDecision =
  | { kind: 'restore'; source: Release; replaced: Release }
  | { kind: 'empty-track' }
  | { kind: 'no-earlier-release'; newest: Release }
  | { kind: 'not-in-track'; to: string }
  | { kind: 'already-active'; newest: Release };

const sameTrack = (release: Release, track: Track): boolean =>
  release.channel === track.channel &&
  release.platform === track.platform &&
  release.runtimeVersion === track.runtimeVersion;

/**
 * Which release a rollback restores. The newest record is the active one, so a rollback restores
 * either the release named by `to` (from the same track, and not the active one) or, by default,
 * the release just before the newest. After a roll back to embedded no release is active, so `to`
 * may name the newest too (the default stays the one before it).
 */
export function decideRollback(input: RollbackInput): RollbackDecision {
  const [newest, previous] = input.recent;
  if (!newest) return { kind: 'empty-track' };
  if (input.to !== undefined) {
    if (!input.requested || !sameTrack(input.requested, input.track)) return { kind: 'not-in-track', to: input.to };
    if (input.requested.id === newest.id && !input.embeddedIsServed) return { kind: 'already-active', newest };
    return { kind: 'restore', source: input.requested, replaced: newest };
  }
  if (!previous) return { kind: 'no-earlier-release', newest };
  return { kind: 'restore', source: previous, replaced: newest };
}

export interface RollbackRecordOptions {
  id: string;
  createdAt: Date;
  actor?: string;
  runId?: string;
  /** The group the copy joins: the copies one action makes form one group. */
  groupId: string;
}

/**
 * The new record a rollback inserts: the restored release's content, update policy and fingerprint
 * (so the guard keeps comparing the next publish with it), plus where it came from.
 */
export function rollbackRecord(source: Release, options: RollbackRecordOptions): NewRelease {
  const { actor, runId, promotedFrom: _promotedFrom, ...origin } = source.metadata;
  return {
    id: options.id,
    app: source.app,
    channel: source.channel,
    platform: source.platform,
    runtimeVersion: source.runtimeVersion,
    launchAsset: source.launchAsset,
    assets: source.assets,
    otaConfig: source.otaConfig,
    updatePolicy: source.updatePolicy,
    metadata: {
      ...origin,
      actor: options.actor ?? actor,
      runId: options.runId ?? runId,
      fingerprint: source.metadata.fingerprint ?? null,
      rolledBackFrom: source.id,
    },
    createdAt: options.createdAt,
    groupId: options.groupId,
  };
}
