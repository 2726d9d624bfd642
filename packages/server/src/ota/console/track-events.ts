import type { ConsoleEvent } from '@ferry/contracts';

export type TrackEventListener = (event: ConsoleEvent) => void;

/**
 * Where the console learns that a track changed: this instance's publishes, rollout changes,
 * directives and halts (`local`), and other instances' through PostgreSQL NOTIFY (`remote`). With
 * SQLite there is one instance, so the local ones are all there are.
 */
export class TrackEvents {
  private readonly listeners = new Set<TrackEventListener>();

  subscribe(listener: TrackEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.listeners.size;
  }

  emit(event: ConsoleEvent): void {
    // A listener that throws (a socket gone bad) must not keep the others from hearing it.
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        this.listeners.delete(listener);
      }
    }
  }
}
