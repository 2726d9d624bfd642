import { isGuardedTrack, nativeChangeVerdict, type Platform } from '@ferry/contracts';

/** The head commit's native identity for one platform, resolved exactly as the publisher does. */
export type Inspection = { ok: true; runtimeVersion: string; fingerprint: string } | { ok: false; error: string };

/** What the server said about the production baseline of (platform, runtimeVersion). */
export type BaselineLookup =
  /** 200: the newest production release of the track; fingerprint null when it stored none. */
  | { kind: 'found'; fingerprint: string | null; releaseId: string }
  /** 404 naming the track: no production release exists for this runtimeVersion yet. */
  | { kind: 'no-release' }
  /** Any other 404: the baseline endpoint itself is missing (a wrong --server, an older server). */
  | { kind: 'endpoint-not-found'; message: string }
  /** No answer at all: connection refused, DNS, timeout. */
  | { kind: 'unreachable'; message: string }
  /** Another status, or a body that is not a baseline. */
  | { kind: 'failed'; message: string }
  /** Neither --server nor OTA_SERVER_URL was given. */
  | { kind: 'no-server' };

export type GateRule =
  | 'not-affected'
  | 'compute-error'
  | 'prerelease'
  | 'no-server'
  | 'unreachable'
  | 'endpoint-not-found'
  | 'baseline-error'
  | 'new-track'
  | 'no-baseline'
  | 'same-fingerprint'
  | 'native-changed';

export interface PlatformVerdict {
  platform: Platform;
  outcome: 'pass' | 'block';
  /** How the verdict is annotated: an error blocks; a warning means no decision was possible. */
  level: 'none' | 'notice' | 'warning' | 'error';
  rule: GateRule;
  message: string;
  runtimeVersion?: string;
  fingerprint?: string;
  /** The baseline's fingerprint; null when the baseline release stored none. */
  baseline?: string | null;
}

export interface GateInput {
  platform: Platform;
  affected: boolean;
  inspection?: Inspection;
  baseline?: BaselineLookup;
}

const short = (hash: string) => (hash.length > 12 ? hash.slice(0, 12) : hash);

/**
 * The pre-merge gate's decision for one platform (spec, "Pre-merge gate" rules 1–4). It blocks
 * exactly when the production publish of this commit would get 409 from the guard: both ask the
 * shared rule (nativeChangeVerdict) about the production baseline. Whenever no decision is possible
 * it warns and passes.
 */
export function gateVerdict(input: GateInput): PlatformVerdict {
  const { platform } = input;
  if (!input.affected) {
    return {
      platform,
      outcome: 'pass',
      level: 'none',
      rule: 'not-affected',
      message: `${platform}: the change cannot alter the native fingerprint`,
    };
  }
  const inspection = input.inspection;
  if (!inspection?.ok) {
    const error = inspection && !inspection.ok ? inspection.error : 'not computed';
    return warn(platform, 'compute-error', `${platform}: could not resolve runtimeVersion and fingerprint (${error})`);
  }
  const { runtimeVersion, fingerprint } = inspection;
  const known = { runtimeVersion, fingerprint };
  if (!isGuardedTrack('production', runtimeVersion)) {
    return {
      platform,
      outcome: 'pass',
      level: 'notice',
      rule: 'prerelease',
      message: `${platform}: ${runtimeVersion} is a pre-release track, which the guard never compares`,
      ...known,
    };
  }
  const baseline = input.baseline ?? { kind: 'no-server' as const };
  switch (baseline.kind) {
    case 'no-server':
      return warn(platform, 'no-server', `${platform}: no server given (--server or OTA_SERVER_URL)`, known);
    case 'unreachable':
      return warn(platform, 'unreachable', `${platform}: the baseline could not be read: ${baseline.message}`, known);
    case 'endpoint-not-found':
      return warn(platform, 'endpoint-not-found', `${platform}: ${baseline.message}`, known);
    case 'failed':
      return warn(
        platform,
        'baseline-error',
        `${platform}: the baseline could not be read: ${baseline.message}`,
        known,
      );
    case 'no-release':
    case 'found':
      break;
  }
  const verdict = nativeChangeVerdict(
    { channel: 'production', runtimeVersion, fingerprint },
    baseline.kind === 'found' ? baseline : null,
  );
  if (verdict.changed) {
    const { storedFingerprint, baseline: found } = verdict;
    return {
      platform,
      outcome: 'block',
      level: 'error',
      rule: 'native-changed',
      message:
        `${platform}: the native fingerprint changed on runtimeVersion ${runtimeVersion} ` +
        `(production baseline ${short(storedFingerprint)} from release ${found.releaseId}, this commit ${short(fingerprint)}). ` +
        'Publishing it to production would be refused with 409. Raise the build number (ferry bump build) ' +
        'so the change ships as a new store build on a new track',
      ...known,
      baseline: storedFingerprint,
    };
  }
  switch (verdict.reason) {
    case 'no-earlier-release':
      return {
        platform,
        outcome: 'pass',
        level: 'notice',
        rule: 'new-track',
        message:
          `${platform}: no production release exists for ${runtimeVersion}: a new track. Its first production ` +
          'publish becomes the baseline, so publish it from the store build’s own commit',
        ...known,
      };
    case 'no-stored-fingerprint':
      return {
        platform,
        outcome: 'pass',
        level: 'notice',
        rule: 'no-baseline',
        message: `${platform}: the newest production release of ${runtimeVersion} stored no fingerprint, so there is nothing to compare`,
        ...known,
        baseline: null,
      };
    default:
      // same-fingerprint; the rule's other reasons cannot occur here (a production, guarded track
      // and a computed fingerprint).
      return {
        platform,
        outcome: 'pass',
        level: 'none',
        rule: 'same-fingerprint',
        message: `${platform}: the native fingerprint of ${runtimeVersion} is unchanged`,
        ...known,
        baseline: fingerprint,
      };
  }
}

function warn(
  platform: Platform,
  rule: GateRule,
  message: string,
  known: { runtimeVersion?: string; fingerprint?: string } = {},
): PlatformVerdict {
  return {
    platform,
    outcome: 'pass',
    level: 'warning',
    rule,
    message: `${message}; passing without a decision`,
    ...known,
  };
}
