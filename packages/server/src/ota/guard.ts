import { type Channel, isGuardedTrack, type NativeChangeAbsentReason, nativeChangeVerdict } from '@ferry/contracts';

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

export type GuardPassReason = NativeChangeAbsentReason;

export type GuardVerdict =
  | { kind: 'pass'; reason: GuardPassReason }
  | { kind: 'bypass'; storedFingerprint: string | null; candidateFingerprint: string | null; wouldHaveBlocked: boolean }
  | { kind: 'block'; storedFingerprint: string; candidateFingerprint: string; baselineReleaseId: string };

/**
 * The native-change guard (spec, POST /api/updates/release rules 2–4 and 6): the shared rule's
 * answer (nativeChangeVerdict) turned into pass, block, or a reported bypass. allowNativeChange
 * only matters on a guarded track; elsewhere there is nothing to bypass.
 */
export function evaluateGuard(candidate: GuardCandidate, newest: GuardBaseline | undefined): GuardVerdict {
  const verdict = nativeChangeVerdict(
    candidate,
    newest ? { id: newest.id, fingerprint: newest.fingerprint ?? null } : null,
  );
  if (candidate.allowNativeChange === true && isGuardedTrack(candidate.channel, candidate.runtimeVersion)) {
    return {
      kind: 'bypass',
      storedFingerprint: newest?.fingerprint ?? null,
      candidateFingerprint: candidate.fingerprint ?? null,
      wouldHaveBlocked: verdict.changed,
    };
  }
  if (!verdict.changed) return { kind: 'pass', reason: verdict.reason };
  const { storedFingerprint, candidateFingerprint, baseline } = verdict;
  return { kind: 'block', storedFingerprint, candidateFingerprint, baselineReleaseId: baseline.id };
}
