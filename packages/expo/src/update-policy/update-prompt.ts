import { UpdatePolicy } from '@ferry/contracts/update-policy';
import { resolveUpdatePolicy } from './resolve-update-policy.js';

/** What the app shows for the update state: nothing, the Notify banner, or the Immediate overlay. */
export type UpdatePrompt = 'none' | 'notify' | 'immediate';

export interface UpdatePromptInput {
  /** expo-updates' `isEnabled`: false in development builds, Expo Go and builds with updates off. */
  updatesEnabled: boolean;
  /** `isUpdatePending` from useUpdates(): a new update has been downloaded. */
  isUpdatePending: boolean;
  /** `downloadedUpdate` from useUpdates(); a rollback directive has no update id and no manifest. */
  downloadedUpdate: { updateId?: string; manifest?: unknown } | undefined;
  /** The update id that is running now. */
  runningUpdateId: string | undefined;
  /** Notify: the person hid this update id in this session. */
  isDismissed(updateId: string): boolean;
  /** Immediate: the reload of this update id failed once; it then waits for the next cold launch. */
  reloadFailed(updateId: string): boolean;
}

export interface UpdatePromptDecision {
  policy: UpdatePolicy;
  /** The downloaded update the decision is about, or null when there is none. */
  updateId: string | null;
  prompt: UpdatePrompt;
}

const silent = (updateId: string | null, policy: UpdatePolicy = UpdatePolicy.Default): UpdatePromptDecision => ({
  policy,
  updateId,
  prompt: 'none',
});

/**
 * The client half of the "Update policy enum" table as one pure decision. The policy is read only
 * in release builds with updates enabled and only from an update that has finished downloading;
 * everything else is Default, which shows nothing (expo-updates applies it at the next cold launch).
 */
export function decideUpdatePrompt(input: UpdatePromptInput): UpdatePromptDecision {
  if (!input.updatesEnabled || !input.isUpdatePending) return silent(null);
  const update = input.downloadedUpdate;
  const updateId = typeof update?.updateId === 'string' && update.updateId !== '' ? update.updateId : null;
  // A rollback directive carries no manifest and therefore no policy.
  if (updateId === null || updateId === input.runningUpdateId) return silent(null);
  const policy = resolveUpdatePolicy(update?.manifest);
  switch (policy) {
    case UpdatePolicy.Notify:
      return { policy, updateId, prompt: input.isDismissed(updateId) ? 'none' : 'notify' };
    case UpdatePolicy.Immediate:
      return { policy, updateId, prompt: input.reloadFailed(updateId) ? 'none' : 'immediate' };
    default:
      return silent(updateId, policy);
  }
}
