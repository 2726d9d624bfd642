import type { PatchState } from '@ferry/contracts';

/**
 * Whether a made and checked patch is offered: only when it is at most `maxRatio` of what the full
 * download sends (the brotli form). A patch barely smaller than the full bundle costs the device a
 * patch step, and a fallback download if anything goes wrong, for little gain.
 */
export const patchVerdict = (
  patchBytes: number,
  fullBytes: number,
  maxRatio: number,
): Extract<PatchState, 'ready' | 'larger'> => (patchBytes <= fullBytes * maxRatio ? 'ready' : 'larger');

/** Attempts at one patch before it is marked failed: a crash mid-way is retried, a patch that kills its maker is not. */
export const PATCH_MAX_ATTEMPTS = 3;
