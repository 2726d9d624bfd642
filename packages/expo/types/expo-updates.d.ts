// The subset of expo-updates' public API that @ferry/expo uses, mirrored from expo-updates'
// src/UseUpdates.types.ts and src/Updates.ts. expo-updates is a peer dependency: installing it in
// the monorepo would pull the whole Expo SDK (its own peer), so the SDK is type-checked against this
// mirror and the example app's Metro build checks it against the real package.
declare module 'expo-updates' {
  /** The update manifest (Expo Updates protocol v1); Ferry reads only `id` and `extra`. */
  export type Manifest = {
    id?: string;
    createdAt?: string;
    runtimeVersion?: string;
    extra?: Record<string, unknown> | null;
    [key: string]: unknown;
  };

  export type CurrentlyRunningInfo = {
    updateId?: string;
    channel?: string;
    createdAt?: Date;
    isEmbeddedLaunch: boolean;
    isEmergencyLaunch: boolean;
    emergencyLaunchReason: string | null;
    manifest?: Partial<Manifest>;
    runtimeVersion?: string;
  };

  export type UpdateInfoNew = { type: 'new'; updateId: string; createdAt: Date; manifest: Manifest };
  export type UpdateInfoRollback = { type: 'rollback'; updateId: undefined; createdAt: Date; manifest: undefined };
  export type UpdateInfo = UpdateInfoNew | UpdateInfoRollback;

  export type UseUpdatesReturnType = {
    currentlyRunning: CurrentlyRunningInfo;
    availableUpdate?: UpdateInfo;
    downloadedUpdate?: UpdateInfo;
    isUpdateAvailable: boolean;
    isUpdatePending: boolean;
    isChecking: boolean;
    isDownloading: boolean;
    checkError?: Error;
    downloadError?: Error;
    initializationError?: Error;
    lastCheckForUpdateTimeSinceRestart?: Date;
  };

  /** False in development builds, Expo Go, and builds whose config disables updates. */
  export const isEnabled: boolean;
  export function useUpdates(): UseUpdatesReturnType;
  export function reloadAsync(): Promise<void>;
}
