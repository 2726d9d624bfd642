// A controllable stand-in for expo-updates: tests push useUpdates() states the way the native
// state machine does (check, download, downloaded) and observe reloadAsync().
import type { UseUpdatesReturnType } from 'expo-updates';
import { useSyncExternalStore } from 'react';

type MockState = Omit<UseUpdatesReturnType, 'currentlyRunning'> & {
  currentlyRunning: Partial<UseUpdatesReturnType['currentlyRunning']>;
};

export const RUNNING_ID = '9a1f5e20-4c7b-4d8e-9b3a-000000000000';

export const idle = (): MockState => ({
  currentlyRunning: { updateId: RUNNING_ID, isEmbeddedLaunch: true, isEmergencyLaunch: false },
  isUpdateAvailable: false,
  isUpdatePending: false,
  isChecking: false,
  isDownloading: false,
});

const listeners = new Set<() => void>();

export const updatesMock = {
  isEnabled: true,
  state: idle(),
  reloadAsync: jest.fn<Promise<void>, []>(() => Promise.resolve()),
  /** What the native module does when its state machine moves. */
  push(state: MockState) {
    updatesMock.state = state;
    for (const listener of listeners) listener();
  },
};

/** The module the SDK sees in place of expo-updates. */
export const expoUpdatesModule = {
  __esModule: true,
  get isEnabled() {
    return updatesMock.isEnabled;
  },
  useUpdates: () =>
    useSyncExternalStore(
      (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      () => updatesMock.state,
    ),
  reloadAsync: () => updatesMock.reloadAsync(),
};

/** The downloaded update as useUpdates() reports it; `updatePolicy` undefined leaves it out (rule 5). */
export function downloadedUpdate(updateId: string, updatePolicy?: unknown) {
  const manifest = { id: updateId, extra: updatePolicy === undefined ? {} : { updatePolicy } };
  return { type: 'new' as const, updateId, createdAt: new Date(0), manifest };
}

export const checking = (): MockState => ({ ...idle(), isChecking: true });

export const downloading = (updateId: string, updatePolicy?: unknown): MockState => ({
  ...idle(),
  isUpdateAvailable: true,
  isDownloading: true,
  availableUpdate: downloadedUpdate(updateId, updatePolicy),
});

export const downloaded = (updateId: string, updatePolicy?: unknown): MockState => ({
  ...idle(),
  isUpdateAvailable: true,
  isUpdatePending: true,
  availableUpdate: downloadedUpdate(updateId, updatePolicy),
  downloadedUpdate: downloadedUpdate(updateId, updatePolicy),
});

export function resetUpdatesMock() {
  updatesMock.isEnabled = true;
  updatesMock.state = idle();
  listeners.clear();
  updatesMock.reloadAsync.mockReset();
  updatesMock.reloadAsync.mockImplementation(() => Promise.resolve());
}
