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
  /**
   * `--allow-unreachable`: when the production baseline cannot be read (no server, network
   * failure, a 404 that is not the registry's, another status), pass with a warning instead of
   * blocking.
   */
  allowUnreachable?: boolean;
}

/** The flag that lets a gate without a readable baseline pass; named in every such annotation. */
export const ALLOW_UNREACHABLE_FLAG = '--allow-unreachable';

const short = (hash: string) => (hash.length > 12 ? hash.slice(0, 12) : hash);

/**
 * The pre-merge gate's decision for one platform (spec, "Pre-merge gate" rules 1–3). It blocks
 * when the production publish of this commit would get 409 from the guard: both ask the shared rule
 * (nativeChangeVerdict) about the production baseline. It fails safe where the spec's rule 4 passed
 * (docs/decisions.md): a baseline that cannot be read blocks unless `allowUnreachable`, since a
 * wrong server URL would otherwise keep the required check green for ever, and a fingerprint that
 * cannot be computed blocks, since the production publish of the same commit would fail the same way.
 * A 404 naming the track is a new track, which passes.
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
    return {
      platform,
      outcome: 'block',
      level: 'error',
      rule: 'compute-error',
      message:
        `${platform}: could not resolve runtimeVersion and fingerprint (${error}). The gate cannot decide, ` +
        'so it blocks; the production publish of this commit would fail the same way. Run the gate where ' +
        'the app is installed (npm ci) and its config evaluates',
    };
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
  const undecided = (rule: GateRule, reason: string) =>
    cannotReadBaseline(platform, rule, reason, input.allowUnreachable === true, known);
  switch (baseline.kind) {
    case 'no-server':
      return undecided('no-server', `${platform}: no server given (--server or OTA_SERVER_URL)`);
    case 'unreachable':
      return undecided('unreachable', `${platform}: the baseline could not be read: ${baseline.message}`);
    case 'endpoint-not-found':
      return undecided('endpoint-not-found', `${platform}: ${baseline.message}`);
    case 'failed':
      return undecided('baseline-error', `${platform}: the baseline could not be read: ${baseline.message}`);
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

/**
 * No production baseline to compare with: blocks, naming the way out, unless the run allows it
 * (then a warning, as the spec's rule 4 had it).
 */
function cannotReadBaseline(
  platform: Platform,
  rule: GateRule,
  reason: string,
  allowed: boolean,
  known: { runtimeVersion: string; fingerprint: string },
): PlatformVerdict {
  if (allowed) {
    return {
      platform,
      outcome: 'pass',
      level: 'warning',
      rule,
      message: `${reason}; passing without a decision (${ALLOW_UNREACHABLE_FLAG})`,
      ...known,
    };
  }
  return {
    platform,
    outcome: 'block',
    level: 'error',
    rule,
    message:
      `${reason}. Without the production baseline the gate cannot decide, so it blocks: check the server URL ` +
      `(--server or OTA_SERVER_URL) and that the server answers, or pass ${ALLOW_UNREACHABLE_FLAG} to let it pass ` +
      'with a warning',
    ...known,
  };
}
