import {
  ASSET_COLLECTING_RETRY_SECONDS,
  type KnownErrorCode,
  type Platform,
  type Release,
  type TrackKey,
  trackName,
} from '@ferry/contracts';
import { DomainError } from '../errors/domain-error.js';
import { trackOf } from './app-track.js';
import type { GuardVerdict } from './guard.js';

/** The guard refused a production release whose native fingerprint differs from its track's baseline. */
export class NativeFingerprintChanged extends DomainError {
  override name = 'NativeFingerprintChanged';
  constructor(track: TrackKey, verdict: Extract<GuardVerdict, { kind: 'block' }>) {
    super(
      'conflict',
      'NATIVE_FINGERPRINT_CHANGED',
      `The native fingerprint changed for runtimeVersion ${track.runtimeVersion} on ${track.platform} (${track.channel}). ` +
        'Native code cannot ship over the air: make a new store build with a higher build number, which starts a new runtimeVersion.',
      {
        runtimeVersion: track.runtimeVersion,
        platform: track.platform,
        channel: track.channel,
        baselineFingerprint: verdict.storedFingerprint,
        fingerprint: verdict.candidateFingerprint,
        baselineReleaseId: verdict.baselineReleaseId,
      },
    );
  }
}

/** A listed asset, as errors name it: where it is stored, its hash and the URL the release gave. */
export interface NamedAsset {
  key: string;
  hash: string;
  url: string;
}

/**
 * A release lists assets that are not in the object store, or that a garbage collection is
 * deleting: the signed manifest would point devices at nothing. The publisher uploads them again
 * (POST /api/updates/assets says which) and publishes again.
 */
export class AssetMissing extends DomainError {
  override name = 'AssetMissing';
  constructor(missing: NamedAsset[], collecting: NamedAsset[] = []) {
    super(
      'unprocessable',
      'ASSET_MISSING',
      collecting.length === 0
        ? `${missing.length} asset(s) of this release are not in the object store: upload them first (POST /api/updates/assets), then publish again.`
        : `${collecting.length} asset(s) of this release are being deleted by a garbage collection: ask POST /api/updates/assets again, upload what it reports missing, then publish again.`,
      { missing: [...missing, ...collecting], collecting },
      collecting.length === 0 ? undefined : ASSET_COLLECTING_RETRY_SECONDS,
    );
  }
}

/**
 * A release lists an asset at a URL Ferry did not give out for it: devices would download something
 * else, or nothing, and fail the whole update.
 */
export class AssetUrlMismatch extends DomainError {
  override name = 'AssetUrlMismatch';
  constructor(mismatched: Array<NamedAsset & { expected: string }>) {
    super(
      'unprocessable',
      'ASSET_URL_MISMATCH',
      `${mismatched.length} asset URL(s) of this release are not the URL Ferry serves that asset at: list each asset at the url POST /api/updates/assets answered for its hash.`,
      { mismatched },
    );
  }
}

/** The track has no release at all. */
export class TrackEmpty extends DomainError {
  override name = 'TrackEmpty';
  constructor(track: TrackKey, what = '') {
    super('not-found', 'NOT_FOUND', `No release exists for ${trackName(track)}${what}.`, { ...track });
  }
}

export class NoEarlierRelease extends DomainError {
  override name = 'NoEarlierRelease';
  constructor(track: TrackKey, activeReleaseId: string) {
    super(
      'not-found',
      'NO_EARLIER_RELEASE',
      `${trackName(track)} has only one release (${activeReleaseId}); there is no earlier release to roll back to.`,
      { ...track, activeReleaseId },
    );
  }
}

export class ReleaseNotInTrack extends DomainError {
  override name = 'ReleaseNotInTrack';
  constructor(track: TrackKey, to: string) {
    super('not-found', 'NOT_FOUND', `Release ${to} is not a release of ${trackName(track)}.`, { ...track, to });
  }
}

export class AlreadyActive extends DomainError {
  override name = 'AlreadyActive';
  constructor(track: TrackKey, activeReleaseId: string) {
    super(
      'conflict',
      'ALREADY_ACTIVE',
      `Release ${activeReleaseId} is already the active release of ${trackName(track)}.`,
      { ...track, activeReleaseId },
    );
  }
}

/** An asset the publisher asked about is larger than this server accepts. */
export class AssetTooLarge extends DomainError {
  override name = 'AssetTooLarge';
  constructor(hash: string, size: number, limit: number) {
    super('too-large', 'PAYLOAD_TOO_LARGE', `Asset ${hash} has ${size} bytes; an asset may be at most ${limit}.`, {
      hash,
      size,
      limit,
    });
  }
}

/** No release has this id. */
export class ReleaseNotFound extends DomainError {
  override name = 'ReleaseNotFound';
  constructor(releaseId: string) {
    super('not-found', 'NOT_FOUND', `No release has the id ${releaseId}.`, { releaseId });
  }
}

/** The release reached every device at once: there is no rollout to show or change. */
export class NoRollout extends DomainError {
  override name = 'NoRollout';
  constructor(releaseId: string) {
    super(
      'not-found',
      'NO_ROLLOUT',
      `Release ${releaseId} was published to every device; it has no rollout. Publish with --rollout to stage one.`,
      { releaseId },
    );
  }
}

/** Only a running or halted rollout of a track's newest entry can change. */
export class RolloutEnded extends DomainError {
  override name = 'RolloutEnded';
  constructor(releaseId: string, state: string, reason: string | null) {
    super(
      'conflict',
      'ROLLOUT_ENDED',
      `The rollout of release ${releaseId} is ${state}${reason ? ` (${reason})` : ''}; it can no longer change. Publish again to start a new one.`,
      { releaseId, state, reason },
    );
  }
}

/** No release belongs to the group. */
export class GroupNotFound extends DomainError {
  override name = 'GroupNotFound';
  constructor(groupId: string) {
    super('not-found', 'NOT_FOUND', `No release belongs to the release group ${groupId}.`, { groupId });
  }
}

/** A publish names a group that already has this platform, or is of another channel. */
export class GroupConflict extends DomainError {
  override name = 'GroupConflict';
  constructor(groupId: string, reason: string, details: Record<string, unknown> = {}) {
    super(
      'conflict',
      'GROUP_CONFLICT',
      `Release group ${groupId} ${reason}: a group is one publish of each platform to one channel. Publish with a new groupId.`,
      { groupId, ...details },
    );
  }
}

/** A group rollback whose release is no longer its track's newest: rolling back would undo someone else's. */
export class GroupSuperseded extends DomainError {
  override name = 'GroupSuperseded';
  constructor(groupId: string, release: Release, activeReleaseId: string) {
    super(
      'conflict',
      'GROUP_SUPERSEDED',
      `Release ${release.id} of group ${groupId} is no longer the newest release of ${trackName(release)} (${activeReleaseId} is), so the group cannot be rolled back as one; roll that track back on its own.`,
      { groupId, ...trackOf(release), releaseId: release.id, activeReleaseId },
    );
  }
}

/**
 * One platform of a group action refused it: the same kind and code as that platform's refusal (a
 * client branches on them as for one track), a message that names the platform and says nothing
 * changed, and details naming the platform and the group.
 */
export class GroupActionRefused extends DomainError {
  override name = 'GroupActionRefused';
  constructor(groupId: string, platform: Platform, refusal: DomainError) {
    super(
      refusal.kind,
      refusal.code as KnownErrorCode,
      `${platform}: ${refusal.message} Nothing changed on any platform of release group ${groupId}.`,
      { ...refusal.details, groupId, platform },
      refusal.retryAfterSeconds,
    );
  }
}
