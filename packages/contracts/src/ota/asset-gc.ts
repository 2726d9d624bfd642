import { z } from 'zod';
import { lineText } from '../text.js';

/** Releases kept per track when a collection names no number. */
export const ASSET_GC_DEFAULT_KEEP = 10;
/** More than any team rolls back through; bounds what one request keeps in memory. */
export const ASSET_GC_MAX_KEEP = 1000;
/** Keys of collected objects an answer names, as a sample. */
export const ASSET_GC_SAMPLE_SIZE = 20;

const who = lineText().min(1).max(255);

/**
 * POST /api/updates/gc: deletes the stored update assets (and their compressed forms) that no
 * release it keeps lists. Per track it keeps the newest `keepPerTrack` releases, the head, the
 * rollout fallback and every running or halted rollout. A dry run (the default) deletes nothing
 * and answers what it would delete.
 */
export const AssetGcRequest = z
  .object({
    keepPerTrack: z
      .number()
      .int('keepPerTrack must be a whole number')
      .min(1, 'keepPerTrack must be at least 1 (the newest release of each track is always kept)')
      .max(ASSET_GC_MAX_KEEP, `keepPerTrack must be at most ${ASSET_GC_MAX_KEEP}`)
      .default(ASSET_GC_DEFAULT_KEEP),
    dryRun: z.boolean().default(true),
    /** Who ran it, recorded in the audit event. */
    actor: who.optional(),
    runId: who.optional(),
  })
  .strict();
export type AssetGcRequest = z.infer<typeof AssetGcRequest>;
export type AssetGcRequestInput = z.input<typeof AssetGcRequest>;

const count = z.number().int().min(0);
/** A number of objects and their bytes. */
export const ObjectTally = z.object({ objects: count, bytes: count });
export type ObjectTally = z.infer<typeof ObjectTally>;

export const AssetGcResponse = z.object({
  dryRun: z.boolean(),
  keepPerTrack: count,
  /** Objects younger than this are never deleted (ASSET_GC_GRACE_SECONDS). */
  graceSeconds: count,
  tracks: count,
  releases: count,
  releasesKept: count,
  /** Stored assets a kept release lists. */
  kept: ObjectTally,
  /** Objects no kept release lists but younger than the grace period: left for a later run. */
  young: ObjectTally,
  /** Deleted (or, in a dry run, what would be): assets and compressed forms. */
  collected: ObjectTally.extend({ assets: count, encodedForms: count, patches: count }),
  /** Deletions the object store refused; those objects are still there, and the next run tries again. */
  failed: ObjectTally,
  /** Up to 20 keys of collected objects. */
  sample: z.array(z.string()).max(ASSET_GC_SAMPLE_SIZE),
});
export type AssetGcResponse = z.infer<typeof AssetGcResponse>;

/** Problems an integrity check names at most; the counts cover every one. */
export const ASSET_VERIFY_MAX_PROBLEMS = 1000;

/**
 * POST /api/updates/gc/verify: reads every asset that a release garbage collection keeps lists
 * (the same releases as POST /api/updates/gc with the same keepPerTrack) and names each kept
 * release whose asset is missing, or whose bytes no longer have the asset's hash.
 */
export const AssetVerifyRequest = z
  .object({
    keepPerTrack: z
      .number()
      .int('keepPerTrack must be a whole number')
      .min(1, 'keepPerTrack must be at least 1 (the newest release of each track is always kept)')
      .max(ASSET_GC_MAX_KEEP, `keepPerTrack must be at most ${ASSET_GC_MAX_KEEP}`)
      .default(ASSET_GC_DEFAULT_KEEP),
  })
  .strict();
export type AssetVerifyRequest = z.infer<typeof AssetVerifyRequest>;
export type AssetVerifyRequestInput = z.input<typeof AssetVerifyRequest>;

/** A kept release's asset that is not stored (`missing`) or is stored with other bytes (`corrupt`). */
export const AssetProblem = z.object({
  releaseId: z.string(),
  channel: z.string(),
  platform: z.string(),
  runtimeVersion: z.string(),
  key: z.string(),
  hash: z.string(),
  problem: z.enum(['missing', 'corrupt']),
});
export type AssetProblem = z.infer<typeof AssetProblem>;

export const AssetVerifyResponse = z.object({
  keepPerTrack: count,
  releasesKept: count,
  /** Distinct stored assets read and hashed. */
  checked: ObjectTally,
  /** Kept releases with at least one problem. */
  releasesWithProblems: count,
  /** Up to ASSET_VERIFY_MAX_PROBLEMS, per release and asset. */
  problems: z.array(AssetProblem).max(ASSET_VERIFY_MAX_PROBLEMS),
});
export type AssetVerifyResponse = z.infer<typeof AssetVerifyResponse>;

/**
 * How long a publisher waits before it asks again when its release was refused (ASSET_MISSING)
 * because a garbage collection was deleting assets it lists: a batch of deletions takes seconds.
 */
export const ASSET_COLLECTING_RETRY_SECONDS = 5;
