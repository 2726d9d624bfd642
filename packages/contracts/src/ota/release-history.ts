import { z } from 'zod';
import { ReleaseMetadata, ReleaseSummary, Track } from './release.js';

export const RELEASE_LIST_DEFAULT_LIMIT = 20;
export const RELEASE_LIST_MAX_LIMIT = 100;

/** GET /api/updates/releases: one track's history, newest first. */
export const ReleaseListQuery = Track.extend({
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(RELEASE_LIST_MAX_LIMIT, `limit must be at most ${RELEASE_LIST_MAX_LIMIT}`)
    .default(RELEASE_LIST_DEFAULT_LIMIT),
}).strict();
export type ReleaseListQuery = z.infer<typeof ReleaseListQuery>;
export type ReleaseListQueryInput = z.input<typeof ReleaseListQuery>;

/** One row of the history: the summary plus who published it and from where. */
export const ReleaseListItem = ReleaseSummary.extend({
  metadata: ReleaseMetadata,
  assetCount: z.number().int().min(0),
});
export type ReleaseListItem = z.infer<typeof ReleaseListItem>;

/** The first entry, when there is one, is the active release of the track. */
export const ReleaseListResponse = z.object({ releases: z.array(ReleaseListItem) });
export type ReleaseListResponse = z.infer<typeof ReleaseListResponse>;
