import type { RolloutState } from '@ferry/contracts';
import { rolloutBucket } from './rollout-bucket.js';

/** The rollout of a track's head release, when it has one that is not complete. */
export interface HeadRollout {
  releaseId: string;
  percent: number;
  state: RolloutState;
}

/**
 * What a track serves: its head (newest entry, a release or a directive), the head's rollout if it
 * is not complete, and then the fallback (the newest complete entry before the head) that devices
 * outside the rollout get. `E` is whatever the caller keeps per entry (ids in tests, signed bytes
 * in the manifest cache).
 */
export interface Timeline<E> {
  head: E | undefined;
  rollout: HeadRollout | undefined;
  fallback: E | undefined;
}

/**
 * Which entry a device gets (the rollout selection rule, one place):
 * - no rollout on the head: the head;
 * - a running rollout: the head if the device sends a client id whose bucket is below the
 *   percent, else the fallback;
 * - a halted, reverted or superseded rollout: the fallback;
 * - no fallback: nothing (the answer is 204).
 */
export function chooseEntry<E>(
  timeline: Timeline<E>,
  clientId: string | undefined,
  bucketOf: (clientId: string, releaseId: string) => number = rolloutBucket,
): E | undefined {
  const { head, rollout } = timeline;
  if (!rollout || rollout.state === 'complete') return head;
  if (choosesByClient(timeline) && clientId !== undefined && bucketOf(clientId, rollout.releaseId) < rollout.percent) {
    return head;
  }
  return timeline.fallback;
}

/**
 * Whether chooseEntry can give two devices of the track different entries: only while the head's
 * rollout is running. Otherwise every device gets the same one, and a caller may keep it.
 */
export function choosesByClient(timeline: Pick<Timeline<unknown>, 'rollout'>): boolean {
  return timeline.rollout?.state === 'running';
}
