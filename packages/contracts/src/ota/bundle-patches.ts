import { z } from 'zod';
import { Platform } from './platform.js';
import { AssetHash } from './release.js';
import { RuntimeVersion } from './runtime-version.js';

/**
 * Bundle patches (expo-updates 55+): a device that runs update B and downloads the launch asset of
 * update T may get a BSDIFF40 patch from B's launch bundle to T's instead of the whole bundle.
 * Ferry makes them at publish, from the last PATCH_BASES releases of the track and from the
 * embedded bundles registered for the track's platform and runtime version.
 */

/** Where a patch's base comes from: an earlier release of the track, or a build's embedded bundle. */
export const PatchBaseKind = z.enum(['release', 'embedded']);
export type PatchBaseKind = z.infer<typeof PatchBaseKind>;

/**
 * - `pending`: queued, or being made by one instance;
 * - `ready`: made, checked (applied to its base it gives the target's exact bytes) and offered;
 * - `larger`: made and checked, but not clearly smaller than the compressed full bundle: not offered;
 * - `failed`: could not be made or did not check out: never offered (the reason is logged).
 */
export const PatchState = z.enum(['pending', 'ready', 'larger', 'failed']);
export type PatchState = z.infer<typeof PatchState>;

/** One patch to a release's launch asset, as `ferry releases` and the console show it. */
export const BundlePatch = z.object({
  base: z.object({ kind: PatchBaseKind, updateId: z.uuid() }),
  state: PatchState,
  /** The patch's bytes, once made. */
  bytes: z.number().int().min(0).nullable(),
  /** The launch asset's bytes as a full download sends them (brotli), once measured. */
  fullBytes: z.number().int().min(0).nullable(),
});
export type BundlePatch = z.infer<typeof BundlePatch>;

/**
 * PUT /api/updates/embedded?platform=…&runtimeVersion=…&updateId=…, with the build's launch bundle
 * as the body: registers the update a native build embeds, so releases on its runtime version get
 * a patch from it (`ferry embedded upload`). Registering the same update again changes nothing.
 */
export const EmbeddedBundleQuery = z
  .object({
    platform: Platform,
    runtimeVersion: RuntimeVersion,
    /** The embedded update's id (app.manifest's `id`): what devices running it send as their current update. */
    updateId: z.uuid('updateId must be the embedded update id (a UUID) from the build’s app.manifest'),
  })
  .strict();
export type EmbeddedBundleQuery = z.infer<typeof EmbeddedBundleQuery>;

export const EmbeddedBundle = z.object({
  platform: Platform,
  runtimeVersion: z.string(),
  updateId: z.uuid(),
  /** Unpadded base64url SHA-256 of the bundle. */
  hash: AssetHash,
  bytes: z.number().int().min(0),
  registeredAt: z.iso.datetime(),
});
export type EmbeddedBundle = z.infer<typeof EmbeddedBundle>;

export const EmbeddedBundleResponse = EmbeddedBundle.extend({
  /** Patches from this bundle queued to the releases now served on its runtime version. */
  patchesQueued: z.number().int().min(0),
});
export type EmbeddedBundleResponse = z.infer<typeof EmbeddedBundleResponse>;

/** GET /api/updates/embedded: registered embedded bundles, newest first, optionally for one platform/runtime. */
export const EmbeddedBundleListQuery = z
  .object({ platform: Platform.optional(), runtimeVersion: RuntimeVersion.optional() })
  .strict();
export const EmbeddedBundleListResponse = z.object({ embedded: z.array(EmbeddedBundle) });
export type EmbeddedBundleListResponse = z.infer<typeof EmbeddedBundleListResponse>;
