import type { RolloutState } from '@ferry/contracts';

/** What garbage collection needs to know of a release to decide whether its assets stay. */
export interface ReleaseForGc {
  id: string;
  app: string;
  channel: string;
  platform: string;
  runtimeVersion: string;
  /** Epoch milliseconds; orders a track, newest first. */
  createdAt: number;
  /** The store's sequence: breaks ties between releases stored at the same instant (later = newer). */
  seq: number;
  /** The release's rollout state, or null when it has no rollout (it reached every device at once). */
  rolloutState: RolloutState | null;
}

/** Why a release's assets are kept; a release may be kept for several reasons. */
export type KeepReason = 'head' | 'fallback' | 'rollout' | 'recent';

/** A rollout in one of these states may still be served (running) or resumed (halted). */
const ACTIVE_ROLLOUT: ReadonlySet<RolloutState> = new Set(['running', 'halted']);

/** Complete: devices outside any rollout get the newest release of this kind (the track's fallback). */
const isComplete = (release: ReleaseForGc): boolean =>
  release.rolloutState === null || release.rolloutState === 'complete';

const newestFirst = (a: ReleaseForGc, b: ReleaseForGc): number => b.createdAt - a.createdAt || b.seq - a.seq;

/**
 * The releases whose assets garbage collection must keep, with why. Per track (channel × platform ×
 * runtimeVersion), newest first:
 * - `head`: the newest release, whatever its rollout state;
 * - `fallback`: the newest complete release (no rollout, or a completed one), which devices outside
 *   a rollout (or sending no client id) are served;
 * - `rollout`: every release whose rollout is running or halted (a halted one may be resumed);
 * - `recent`: the newest `keepPerTrack` releases, so a rollback within them finds its assets.
 * Everything else (older releases, reverted or superseded rollouts beyond the newest N) is not kept.
 */
export function releasesToKeep(releases: readonly ReleaseForGc[], keepPerTrack: number): Map<string, KeepReason[]> {
  if (!Number.isInteger(keepPerTrack) || keepPerTrack < 1) {
    throw new RangeError('keepPerTrack must be a whole number of at least 1');
  }
  const tracks = new Map<string, ReleaseForGc[]>();
  for (const release of releases) {
    // App, channel and platform hold no slash, so the name is unique per track.
    const name = `${release.app}/${release.channel}/${release.platform}/${release.runtimeVersion}`;
    const track = tracks.get(name);
    if (track) track.push(release);
    else tracks.set(name, [release]);
  }
  const kept = new Map<string, KeepReason[]>();
  const keep = (release: ReleaseForGc, reason: KeepReason) => {
    const reasons = kept.get(release.id);
    if (reasons) reasons.push(reason);
    else kept.set(release.id, [reason]);
  };
  for (const track of tracks.values()) {
    track.sort(newestFirst);
    const fallback = track.find(isComplete);
    for (const [index, release] of track.entries()) {
      if (index === 0) keep(release, 'head');
      if (release === fallback) keep(release, 'fallback');
      if (release.rolloutState !== null && ACTIVE_ROLLOUT.has(release.rolloutState)) keep(release, 'rollout');
      if (index < keepPerTrack) keep(release, 'recent');
    }
  }
  return kept;
}
