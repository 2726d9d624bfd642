import type { UpdatePolicy } from '@ferry/contracts/update-policy';
import * as Updates from 'expo-updates';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { type DismissedUpdates, sessionDismissals } from './session-dismissals.js';
import { decideUpdatePrompt, type UpdatePrompt } from './update-prompt.js';

export interface UseOtaUpdatePolicyOptions {
  /** Where dismissals are remembered; defaults to the JavaScript session. */
  dismissals?: DismissedUpdates;
  /** Called when reloadAsync() fails (tap on the banner, or Immediate). Defaults to console.warn. */
  onReloadError?: (error: unknown) => void;
}

export interface OtaUpdatePolicyState {
  /** The downloaded update's policy; Default when nothing is downloaded or updates are off. */
  policy: UpdatePolicy;
  /** The downloaded update the state is about, or null. */
  updateId: string | null;
  /** What to show: 'notify' (banner), 'immediate' (overlay while reloading) or 'none'. */
  prompt: UpdatePrompt;
  /** True while reloadAsync() runs. */
  isApplying: boolean;
  /** Reloads into the downloaded update (the banner's tap). */
  apply(): Promise<void>;
  /** Hides the banner for this update id until the app's JavaScript restarts. */
  dismiss(): void;
}

const warn = (error: unknown) => console.warn('[ferry] could not reload into the downloaded update', error);

/**
 * The update policy of the downloaded update, from expo-updates' useUpdates(). expo-updates checks on
 * load and downloads by itself (checkAutomatically ON_LOAD), so this hook never fetches; it reacts
 * when a download completes. Immediate reloads here, so it works even without the overlay.
 */
export function useOtaUpdatePolicy(options: UseOtaUpdatePolicyOptions = {}): OtaUpdatePolicyState {
  const dismissals = options.dismissals ?? sessionDismissals;
  const onReloadError = options.onReloadError ?? warn;
  const { currentlyRunning, downloadedUpdate, isUpdatePending } = Updates.useUpdates();
  useSyncExternalStore(dismissals.subscribe, dismissals.getSnapshot, dismissals.getSnapshot);
  const [failedReloads, setFailedReloads] = useState<ReadonlySet<string>>(() => new Set());
  const [applying, setApplying] = useState<string | null>(null);
  const immediateStarted = useRef<string | null>(null);

  const decision = decideUpdatePrompt({
    updatesEnabled: Updates.isEnabled === true,
    isUpdatePending,
    downloadedUpdate,
    runningUpdateId: currentlyRunning?.updateId,
    isDismissed: (id) => dismissals.has(id),
    reloadFailed: (id) => failedReloads.has(id),
  });
  const { updateId, prompt, policy } = decision;

  const reload = useCallback(
    async (id: string) => {
      setApplying(id);
      try {
        await Updates.reloadAsync();
      } catch (error) {
        setFailedReloads((failed) => new Set(failed).add(id));
        onReloadError(error);
      } finally {
        setApplying(null);
      }
    },
    [onReloadError],
  );

  useEffect(() => {
    // Once per update id: the overlay is on screen (effects run after paint), then reload.
    if (prompt !== 'immediate' || updateId === null || immediateStarted.current === updateId) return;
    immediateStarted.current = updateId;
    void reload(updateId);
  }, [prompt, updateId, reload]);

  const apply = useCallback(async () => {
    if (updateId === null || applying !== null) return;
    await reload(updateId);
  }, [updateId, applying, reload]);

  const dismiss = useCallback(() => {
    if (updateId !== null) dismissals.dismiss(updateId);
  }, [updateId, dismissals]);

  return useMemo(
    () => ({ policy, updateId, prompt, isApplying: applying !== null, apply, dismiss }),
    [policy, updateId, prompt, applying, apply, dismiss],
  );
}
