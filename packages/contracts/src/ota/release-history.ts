import { z } from 'zod';
import { BundlePatch } from './bundle-patches.js';
import { Channel } from './channel.js';
import { Platform } from './platform.js';
import { ReleaseMetadata, ReleaseSummary } from './release.js';
import { GroupId } from './release-group.js';
import { Adoption, RolloutState } from './rollout.js';
import { RuntimeVersion } from './runtime-version.js';

export const RELEASE_LIST_DEFAULT_LIMIT = 20;
export const RELEASE_LIST_MAX_LIMIT = 100;

/**
 * Where the next page of a listing starts. Opaque to clients (they pass back what `nextCursor`
 * said); the server decodes it and answers 400 when it cannot.
 */
export const ReleaseListCursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'cursor must be a nextCursor value from an earlier answer');

/**
 * GET /api/updates/releases: releases newest first, across tracks. Each of channel, platform,
 * runtimeVersion and groupId narrows the list; the first three name one track, whose first entry is
 * its active release.
 */
export const ReleaseListQuery = z
  .object({
    channel: Channel.optional(),
    platform: Platform.optional(),
    runtimeVersion: RuntimeVersion.optional(),
    /** Only the releases of this release group (one per platform). */
    groupId: GroupId.optional(),
    limit: z.coerce
      .number()
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(RELEASE_LIST_MAX_LIMIT, `limit must be at most ${RELEASE_LIST_MAX_LIMIT}`)
      .default(RELEASE_LIST_DEFAULT_LIMIT),
    cursor: ReleaseListCursor.optional(),
  })
  .strict();
export type ReleaseListQuery = z.infer<typeof ReleaseListQuery>;
export type ReleaseListQueryInput = z.input<typeof ReleaseListQuery>;

/**
 * One row of a listing: the summary plus who published it, from where and why (metadata.message),
 * and how many assets it lists. Later fields (rollout state, adoption) are added here.
 */
export const ReleaseListItem = ReleaseSummary.extend({
  metadata: ReleaseMetadata,
  assetCount: z.number().int().min(0),
  /** The release's rollout; null when it reached every device at once. */
  rollout: z
    .object({ percent: z.number().int().min(0).max(100), state: RolloutState, reason: z.string().nullable() })
    .nullable(),
  /** Distinct devices that ran it in the last 24 hours and 7 days. */
  adoption: Adoption,
  /** Patches to its launch asset (bundle patches), newest base first. */
  patches: z.array(BundlePatch),
});
export type ReleaseListItem = z.infer<typeof ReleaseListItem>;

/**
 * Newest first (createdAt, then insertion order). For a whole track, the first entry of the first
 * page is its active release. `nextCursor` is null on the last page.
 */
export const ReleaseListResponse = z.object({
  releases: z.array(ReleaseListItem),
  nextCursor: z.string().nullable(),
});
export type ReleaseListResponse = z.infer<typeof ReleaseListResponse>;
