import { type Channel, isPrereleaseRuntimeVersion } from '@ferry/contracts';

/** What the guard needs from the incoming release. */
export interface GuardCandidate {
  channel: Channel;
  runtimeVersion: string;
  fingerprint?: string | null;
  allowNativeChange?: boolean;
}

/** What the guard needs from the newest stored release of the same track. */
export interface GuardBaseline {
  id: string;
  fingerprint?: string | null;
}

export type GuardPassReason =
  | 'not-production'
  | 'prerelease'
  | 'no-fingerprint'
  | 'no-earlier-release'
  | 'no-stored-fingerprint'
  | 'same-fingerprint';

export type GuardVerdict =
  | { kind: 'pass'; reason: GuardPassReason }
  | { kind: 'bypass'; storedFingerprint: string | null; candidateFingerprint: string | null; wouldHaveBlocked: boolean }
  | { kind: 'block'; storedFingerprint: string; candidateFingerprint: string; baselineReleaseId: string };

/**
 * The native-change guard (spec, POST /api/updates/release rules 2–4 and 6), as a pure decision.
 * A production release on a non-pre-release track must carry the same native fingerprint as the
 * newest release of its track; allowNativeChange skips the comparison but is reported as a bypass.
 */
export function evaluateGuard(candidate: GuardCandidate, newest: GuardBaseline | undefined): GuardVerdict {
  if (candidate.channel !== 'production') return { kind: 'pass', reason: 'not-production' };
  if (isPrereleaseRuntimeVersion(candidate.runtimeVersion)) return { kind: 'pass', reason: 'prerelease' };

  const storedFingerprint = newest?.fingerprint ?? null;
  const candidateFingerprint = candidate.fingerprint ?? null;
  const differs =
    storedFingerprint !== null && candidateFingerprint !== null && storedFingerprint !== candidateFingerprint;

  if (candidate.allowNativeChange === true) {
    return { kind: 'bypass', storedFingerprint, candidateFingerprint, wouldHaveBlocked: differs };
  }
  if (candidateFingerprint === null) return { kind: 'pass', reason: 'no-fingerprint' };
  if (!newest) return { kind: 'pass', reason: 'no-earlier-release' };
  if (storedFingerprint === null) return { kind: 'pass', reason: 'no-stored-fingerprint' };
  if (!differs) return { kind: 'pass', reason: 'same-fingerprint' };
  return { kind: 'block', storedFingerprint, candidateFingerprint, baselineReleaseId: newest.id };
}
