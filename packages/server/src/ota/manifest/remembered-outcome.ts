import type { TrackSlot } from './manifest-cache.js';
import type { ManifestOutcome } from './manifest-outcome.js';

/**
 * What one remembered manifest request (an entry of parseManifestRequest's memo: the same headers
 * from every device of a track) last resolved to. ManifestService.resolveCached fills it and, while
 * the slot is current, answers from it without a lookup.
 */
export class RememberedOutcome {
  /** The slot of the request's track that the outcome came from. */
  slot: TrackSlot | undefined = undefined;
  /** The outcome, when the slot's entry gives every device the same one (no rollout choosing). */
  outcome: ManifestOutcome | undefined = undefined;
}
