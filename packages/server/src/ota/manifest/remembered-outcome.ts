import type { ManifestNamespace } from '@ferry/contracts';
import { manifestAnswer } from './manifest-answer.js';
import { KeptSlot } from './manifest-cache.js';
import type { ManifestFormat } from './manifest-format.js';
import type { ManifestOutcome } from './manifest-outcome.js';
import type { ManifestAnswer } from './manifest-response.js';

/**
 * What one remembered manifest request (an entry of parseManifestRequest's memo: the same headers
 * from every device of a track) last resolved to: the slot of its track, kept
 * (ManifestService.resolveCached), the outcome it gave, and the answer sent for it. All of it is
 * let go when the cache drops the slot's entry.
 */
export class RememberedOutcome extends KeptSlot {
  /** The outcome, when the slot's entry gives every device the same one (no rollout choosing). */
  outcome: ManifestOutcome | undefined = undefined;
  private answered: ManifestOutcome | undefined = undefined;
  private answeredFormat: ManifestFormat | undefined = undefined;
  private answer: ManifestAnswer | undefined = undefined;

  override release(): void {
    super.release();
    this.outcome = undefined;
    this.answered = undefined;
    this.answeredFormat = undefined;
    this.answer = undefined;
  }

  /** manifestAnswer, made again only when the outcome or the structure is not the last one's. */
  answerTo(outcome: ManifestOutcome, format: ManifestFormat, ns: ManifestNamespace): ManifestAnswer | undefined {
    // Kept only beside a held slot, whose drop releases it: the memo never retains a dropped entry.
    if (this.slot === undefined) return manifestAnswer(outcome, format, ns);
    if (outcome !== this.answered || format !== this.answeredFormat) {
      this.answer = manifestAnswer(outcome, format, ns);
      this.answered = outcome;
      this.answeredFormat = format;
    }
    return this.answer;
  }
}
