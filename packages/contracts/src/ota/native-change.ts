import type { Channel } from './channel.js';
import { isPrereleaseRuntimeVersion } from './runtime-version.js';

/** Why a release may go out although the guard compared nothing, or compared and found no change. */
export type NativeChangeAbsentReason =
  | 'not-production'
  | 'prerelease'
  | 'no-fingerprint'
  | 'no-earlier-release'
  | 'no-stored-fingerprint'
  | 'same-fingerprint';

export type NativeChangeVerdict<B extends NativeChangeBaseline = NativeChangeBaseline> =
  | { changed: false; reason: NativeChangeAbsentReason }
  | { changed: true; storedFingerprint: string; candidateFingerprint: string; baseline: B };

/** What is compared: the release (or commit) on its way to a track. */
export interface NativeChangeCandidate {
  channel: Channel;
  runtimeVersion: string;
  fingerprint?: string | null;
}

/** The newest production release of the track; null when the track has none yet. */
export interface NativeChangeBaseline {
  fingerprint: string | null;
}

/**
 * Only production tracks that are not pre-release (`-pre`) are guarded (spec, POST
 * /api/updates/release rules 2 and 3).
 */
export const isGuardedTrack = (channel: Channel, runtimeVersion: string): boolean =>
  channel === 'production' && !isPrereleaseRuntimeVersion(runtimeVersion);

/**
 * The one answer to "does this fingerprint differ from the production baseline of its track?"
 * (spec, POST /api/updates/release rules 2–4). The server's guard answers 409 exactly when this says
 * changed; the CLI's gate blocks and `ferry bump --if-drift` bumps on the same answer, so the three
 * cannot disagree.
 */
export function nativeChangeVerdict<B extends NativeChangeBaseline>(
  candidate: NativeChangeCandidate,
  baseline: B | null,
): NativeChangeVerdict<B> {
  if (candidate.channel !== 'production') return { changed: false, reason: 'not-production' };
  if (isPrereleaseRuntimeVersion(candidate.runtimeVersion)) return { changed: false, reason: 'prerelease' };
  const candidateFingerprint = candidate.fingerprint ?? null;
  if (candidateFingerprint === null) return { changed: false, reason: 'no-fingerprint' };
  if (baseline === null) return { changed: false, reason: 'no-earlier-release' };
  if (baseline.fingerprint === null) return { changed: false, reason: 'no-stored-fingerprint' };
  if (baseline.fingerprint === candidateFingerprint) return { changed: false, reason: 'same-fingerprint' };
  return { changed: true, storedFingerprint: baseline.fingerprint, candidateFingerprint, baseline };
}
