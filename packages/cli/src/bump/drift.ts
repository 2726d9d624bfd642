import { isGuardedTrack, nativeChangeVerdict, type Platform } from '@ferry/contracts';
import type { BaselineLookup, Inspection } from '../gate/gate-verdict.js';

export type DriftVerdict =
  | { platform: Platform; drift: true; message: string }
  | { platform: Platform; drift: false; message: string }
  /** No answer possible: the bump must not guess (a wrong bump burns a build number, a missed one blocks main). */
  | { platform: Platform; drift: 'unknown'; message: string };

/**
 * The drift check of `ferry bump --if-drift` (spec, "Automatic bump"): the local fingerprint
 * differs from the production baseline of the current runtimeVersion. Without a baseline there is
 * nothing to drift from: the track is new, so it already needs no bump.
 */
export function driftVerdict(
  platform: Platform,
  inspection: Inspection,
  baseline: BaselineLookup | undefined,
): DriftVerdict {
  if (!inspection.ok) return { platform, drift: 'unknown', message: `${platform}: ${inspection.error}` };
  const { runtimeVersion, fingerprint } = inspection;
  if (!isGuardedTrack('production', runtimeVersion)) {
    return { platform, drift: false, message: `${platform}: ${runtimeVersion} is a pre-release track (never guarded)` };
  }
  if (baseline === undefined) {
    return { platform, drift: 'unknown', message: `${platform}: no server given (--server or OTA_SERVER_URL)` };
  }
  switch (baseline.kind) {
    case 'no-server':
      return { platform, drift: 'unknown', message: `${platform}: no server given (--server or OTA_SERVER_URL)` };
    case 'no-release':
    case 'found': {
      const verdict = nativeChangeVerdict(
        { channel: 'production', runtimeVersion, fingerprint },
        baseline.kind === 'found' ? baseline : null,
      );
      if (verdict.changed) {
        return {
          platform,
          drift: true,
          message: `${platform}: the fingerprint drifted from the production baseline of ${runtimeVersion} (${verdict.storedFingerprint.slice(0, 12)} → ${fingerprint.slice(0, 12)})`,
        };
      }
      const why: Partial<Record<typeof verdict.reason, string>> = {
        'no-earlier-release': `${runtimeVersion} has no production release yet (a new track)`,
        'no-stored-fingerprint': `the production release of ${runtimeVersion} stored no fingerprint`,
      };
      return {
        platform,
        drift: false,
        message: `${platform}: ${why[verdict.reason] ?? `${runtimeVersion} matches its production baseline`}`,
      };
    }
    default:
      return { platform, drift: 'unknown', message: `${platform}: ${baseline.message}` };
  }
}
