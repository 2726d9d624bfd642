import { isPrereleaseRuntimeVersion, type Platform } from '@ferry/contracts';
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
  if (isPrereleaseRuntimeVersion(runtimeVersion)) {
    return { platform, drift: false, message: `${platform}: ${runtimeVersion} is a pre-release track (never guarded)` };
  }
  if (baseline === undefined) {
    return { platform, drift: 'unknown', message: `${platform}: no server given (--server or OTA_SERVER_URL)` };
  }
  switch (baseline.kind) {
    case 'no-server':
      return { platform, drift: 'unknown', message: `${platform}: no server given (--server or OTA_SERVER_URL)` };
    case 'no-release':
      return {
        platform,
        drift: false,
        message: `${platform}: ${runtimeVersion} has no production release yet (a new track)`,
      };
    case 'found':
      if (baseline.fingerprint === null) {
        return {
          platform,
          drift: false,
          message: `${platform}: the production release of ${runtimeVersion} stored no fingerprint`,
        };
      }
      return baseline.fingerprint === fingerprint
        ? { platform, drift: false, message: `${platform}: ${runtimeVersion} matches its production baseline` }
        : {
            platform,
            drift: true,
            message: `${platform}: the fingerprint drifted from the production baseline of ${runtimeVersion} (${baseline.fingerprint.slice(0, 12)} → ${fingerprint.slice(0, 12)})`,
          };
    default:
      return { platform, drift: 'unknown', message: `${platform}: ${baseline.message}` };
  }
}
