import { z } from 'zod';
import { BundlePatch } from './bundle-patches.js';
import { Channel } from './channel.js';
import { ManifestNamespace } from './manifest.js';
import { Platform } from './platform.js';
import { ReleaseMetadata, StoredReleaseAsset } from './release.js';
import { GroupId } from './release-group.js';
import { Adoption, HaltRule, RolloutState } from './rollout.js';
import { RuntimeVersion } from './runtime-version.js';
import { UpdatePolicySchema } from './update-policy-schema.js';

/**
 * The release console's read API (issue 19): what the pages under /console show. Answers only;
 * the console changes tracks through the release-control endpoints.
 */

/** What a track serves now, as the console shows it. `embedded`: its newest entry is a roll back to embedded. */
export const CONSOLE_TRACK_STATES = ['running', 'complete', 'halted', 'reverted', 'embedded'] as const;
export const ConsoleTrackState = z.enum(CONSOLE_TRACK_STATES);
export type ConsoleTrackState = z.infer<typeof ConsoleTrackState>;

export const ConsoleTrack = z.object({
  channel: Channel,
  platform: Platform,
  runtimeVersion: RuntimeVersion,
  /** The newest release of the track (null when it has only directives). */
  activeReleaseId: z.uuid().nullable(),
  /**
   * The release group of the newest release (null without one): tracks whose active releases share
   * a group were published together, and a console may show them as one row.
   */
  activeGroupId: GroupId.nullable(),
  message: z.string().nullable(),
  /** Share of devices the newest release reaches: 100 without a rollout. */
  rolloutPercent: z.number().int().min(0).max(100),
  state: ConsoleTrackState,
  /** Distinct devices that ran the newest release in the last 24 hours. */
  adoption24h: z.number().int().min(0),
  /** Failed / received devices of the newest release; null before any device received it. */
  failureRate: z.number().min(0).max(1).nullable(),
  /** The newest entry's createdAt (a release or a directive). */
  lastPublishAt: z.iso.datetime(),
  /** Publishes the native-change guard refused on this track. */
  guardBlocks: z.number().int().min(0),
  /** Publishes that went past the guard with allowNativeChange. */
  guardBypasses: z.number().int().min(0),
});
export type ConsoleTrack = z.infer<typeof ConsoleTrack>;

export const ConsoleTracksResponse = z.object({ tracks: z.array(ConsoleTrack) });
export type ConsoleTracksResponse = z.infer<typeof ConsoleTracksResponse>;

export const ConsoleTrackQuery = z
  .object({ channel: Channel, platform: Platform, runtimeVersion: RuntimeVersion })
  .strict();
export type ConsoleTrackQuery = z.infer<typeof ConsoleTrackQuery>;

/** A release's rollout as the console shows it, with the rule that halts it (null: none). */
export const ConsoleRollout = z.object({
  percent: z.number().int().min(0).max(100),
  state: RolloutState,
  reason: z.string().nullable(),
  haltRule: HaltRule.nullable(),
});
export type ConsoleRollout = z.infer<typeof ConsoleRollout>;

/** Devices that received a release (ran it or reported it failed) and those that reported it failed. */
export const ConsoleHealth = z.object({ received: z.number().int().min(0), failed: z.number().int().min(0) });
export type ConsoleHealth = z.infer<typeof ConsoleHealth>;

/**
 * Distinct devices seen running any release of a track, within the last 24 hours and 7 days: what
 * the console estimates an action's reach from. Devices that only ever ran their build's embedded
 * bundle send no release id, so they are not counted: the figure is a lower bound.
 */
export const ConsoleTrackDevices = z.object({ last24h: z.number().int().min(0), last7d: z.number().int().min(0) });
export type ConsoleTrackDevices = z.infer<typeof ConsoleTrackDevices>;

/** One entry of a track's history: a release (a rollback is a release with rolledBackFrom) or a directive. */
export const ConsoleHistoryEntry = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('release'),
    id: z.uuid(),
    createdAt: z.iso.datetime(),
    groupId: GroupId.nullable(),
    metadata: ReleaseMetadata,
    updatePolicy: UpdatePolicySchema.nullable(),
    rollout: ConsoleRollout.nullable(),
    health: ConsoleHealth,
  }),
  z.object({
    kind: z.literal('directive'),
    id: z.uuid(),
    createdAt: z.iso.datetime(),
    type: z.literal('rollBackToEmbedded'),
    actor: z.string(),
  }),
]);
export type ConsoleHistoryEntry = z.infer<typeof ConsoleHistoryEntry>;

export const CONSOLE_HISTORY_LIMIT = 100;

export const ConsoleHistoryResponse = z.object({ entries: z.array(ConsoleHistoryEntry), devices: ConsoleTrackDevices });
export type ConsoleHistoryResponse = z.infer<typeof ConsoleHistoryResponse>;

export const ConsoleReleaseParams = z.object({ releaseId: z.uuid() }).strict();

/** Counts per UTC day, oldest first, for the release page's charts. */
export const ConsoleDailyCount = z.object({ day: z.iso.date(), devices: z.number().int().min(0) });

export const ConsoleReleaseDetail = z.object({
  id: z.uuid(),
  channel: Channel,
  platform: Platform,
  runtimeVersion: RuntimeVersion,
  createdAt: z.iso.datetime(),
  /** Its release group (GET /api/console/groups/:groupId has every platform of it); null without one. */
  groupId: GroupId.nullable(),
  metadata: ReleaseMetadata,
  updatePolicy: UpdatePolicySchema.nullable(),
  rollout: ConsoleRollout.nullable(),
  /** The launch asset first. `size` is the stored object's byte length, null when it cannot be read. */
  /** `url`: where devices download it now (built from the server's configuration, not the one stored). */
  assets: z.array(StoredReleaseAsset.extend({ launch: z.boolean(), size: z.number().int().min(0).nullable() })),
  /** The manifests as clients receive them, one per header namespace, with whether each signature verifies. */
  manifests: z.array(
    z.object({
      namespace: ManifestNamespace,
      body: z.string(),
      signature: z.string(),
      verifies: z.boolean(),
    }),
  ),
  adoption: Adoption,
  health: ConsoleHealth,
  /** Devices seen on the release's track: how many an action on it reaches, about. */
  trackDevices: ConsoleTrackDevices,
  daily: z.object({ adopted: z.array(ConsoleDailyCount), failed: z.array(ConsoleDailyCount) }),
  /**
   * The bundle patches to the release's launch bundle, as `GET /api/updates/releases` lists them:
   * from earlier releases of its track and from registered embedded bundles. Releases that share a
   * launch bundle (a rollback and the release it restores) share its patches.
   */
  patches: z.array(BundlePatch),
  /**
   * The share of the full (brotli) download a patch is offered up to, as configured now
   * (PATCH_MAX_RATIO). A `larger` patch was over the share configured when it was made.
   */
  patchMaxRatio: z.number().gt(0).max(1),
});
export type ConsoleReleaseDetail = z.infer<typeof ConsoleReleaseDetail>;

export const ConsoleGroupParams = z.object({ groupId: GroupId }).strict();

/** One platform of a release group, as a group's row shows it when opened. */
export const ConsoleGroupMember = z.object({
  releaseId: z.uuid(),
  channel: Channel,
  platform: Platform,
  runtimeVersion: RuntimeVersion,
  createdAt: z.iso.datetime(),
  rollout: z
    .object({ percent: z.number().int().min(0).max(100), state: RolloutState, reason: z.string().nullable() })
    .nullable(),
  /** Whether it is still the newest release of its track (a later publish or rollback replaced it otherwise). */
  active: z.boolean(),
  adoption: Adoption,
  health: z.object({ received: z.number().int().min(0), failed: z.number().int().min(0) }),
});
export type ConsoleGroupMember = z.infer<typeof ConsoleGroupMember>;

/**
 * GET /api/console/groups/:groupId: every platform of a release group (one row in a list, its
 * platforms on demand), in the order of PLATFORMS, with what the release's metadata says once.
 */
export const ConsoleGroup = z.object({
  groupId: GroupId,
  channel: Channel,
  createdAt: z.iso.datetime(),
  metadata: ReleaseMetadata,
  releases: z.array(ConsoleGroupMember),
});
export type ConsoleGroup = z.infer<typeof ConsoleGroup>;

/** One server-sent event of GET /api/console/events (the `data:` line, JSON). */
export const ConsoleEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('track'),
    /** The app of the track: a console's stream only carries its app's events. */
    app: z.string(),
    channel: Channel,
    platform: Platform,
    runtimeVersion: RuntimeVersion,
    /** `local`: this instance changed it; `remote`: another instance did (PostgreSQL NOTIFY). */
    origin: z.enum(['local', 'remote']),
  }),
  /** Notifications may have been missed (the listener reconnected): read everything again. */
  z.object({ type: z.literal('reset') }),
]);
export type ConsoleEvent = z.infer<typeof ConsoleEvent>;
