import type { ManifestNamespace, ManifestRequest } from '@ferry/contracts';
import { runningUpdateOf } from '../reports/running-update.js';
import { manifestAnswer } from './manifest-answer.js';
import { KeptSlot } from './manifest-cache.js';
import type { ManifestFormat } from './manifest-format.js';
import { type ManifestOutcome, type ManifestOutcomeLabel, outcomeLabel } from './manifest-outcome.js';
import type { ManifestAnswer } from './manifest-response.js';

/**
 * A manifest request that passed validation, as parseManifestRequest's memo keeps it for every
 * device that sends the same headers (the devices of one track), and what it last resolved to:
 * the slot of its track, kept (ManifestService.resolveCached), the outcome it gave, and the answer
 * sent for it with its metrics label. What was resolved is let go when the cache drops the slot's
 * entry.
 *
 * One object: a warm request spread over 1,000 tracks reads this record and its answer, and
 * nothing else of its own track. The parsed request, the remembered outcome and the outcome
 * itself (for its label) were separate objects, each one more read from memory per request
 * (bench:manifest (d), measured side by side in docs/benchmarks.md).
 */
export class RememberedRequest extends KeptSlot {
  readonly ok = true;
  /** The request's platform and channel (the metrics' labels), here so an answer reads no other object. */
  readonly platform: string;
  readonly channel: string;
  /** The release the device says it runs (runningUpdateOf), for its device report. */
  readonly runningUpdateId: string | undefined;
  /** The outcome, when the slot's entry gives every device the same one (no rollout choosing). */
  outcome: ManifestOutcome | undefined = undefined;
  private answered: ManifestOutcome | undefined = undefined;
  private answeredFormat: ManifestFormat | undefined = undefined;
  private answer: ManifestAnswer | undefined = undefined;
  private answeredLabel: ManifestOutcomeLabel = 'no-update';

  constructor(
    readonly ns: ManifestNamespace,
    readonly request: ManifestRequest,
    /** The request's track as the manifest cache keys it (trackKey). */
    readonly trackKey: string,
  ) {
    super();
    this.platform = request.platform;
    this.channel = request.channel;
    this.runningUpdateId = runningUpdateOf(request);
  }

  override release(): void {
    super.release();
    this.outcome = undefined;
    this.answered = undefined;
    this.answeredFormat = undefined;
    this.answer = undefined;
  }

  /** manifestAnswer, made again only when the outcome or the structure is not the last one's. */
  answerTo(outcome: ManifestOutcome, format: ManifestFormat): ManifestAnswer | undefined {
    // Kept only beside a held slot, whose drop releases it: the memo never retains a dropped entry.
    if (this.slot === undefined) return manifestAnswer(outcome, format, this.ns);
    if (outcome !== this.answered || format !== this.answeredFormat) {
      this.answer = manifestAnswer(outcome, format, this.ns);
      this.answered = outcome;
      this.answeredFormat = format;
      this.answeredLabel = outcomeLabel(outcome);
    }
    return this.answer;
  }

  /** outcomeLabel, read from this record when the outcome is the one last answered. */
  labelOf(outcome: ManifestOutcome): ManifestOutcomeLabel {
    return outcome === this.answered ? this.answeredLabel : outcomeLabel(outcome);
  }
}
