/**
 * Update ids whose Notify banner the person dismissed. Kept in module memory on purpose: a reload or
 * a cold launch starts a new JavaScript session with an empty set, which is the spec's "hides that
 * updateId for the session". Nothing is written to storage.
 */
export interface DismissedUpdates {
  has(updateId: string): boolean;
  dismiss(updateId: string): void;
  /** useSyncExternalStore contract: the snapshot changes whenever the set changes. */
  subscribe(listener: () => void): () => void;
  getSnapshot(): number;
}

export function createDismissedUpdates(): DismissedUpdates {
  const dismissed = new Set<string>();
  const listeners = new Set<() => void>();
  let version = 0;
  return {
    has: (updateId) => dismissed.has(updateId),
    dismiss(updateId) {
      if (dismissed.has(updateId)) return;
      dismissed.add(updateId);
      version += 1;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => version,
  };
}

/** The app's session: one per JavaScript runtime, shared by every hook instance. */
export const sessionDismissals: DismissedUpdates = createDismissedUpdates();
