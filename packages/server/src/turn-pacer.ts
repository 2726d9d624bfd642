import { WAKE_SLICE } from './single-flight.js';

/**
 * Lets callers through WAKE_SLICE per turn of the event loop, in order: the same pacing as a
 * shared run's wake-up, for work that does not wait on anything (an asset sent from memory).
 */
export class TurnPacer {
  private readonly queue: Array<() => void> = [];
  private scheduled = false;

  turn(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.queue.push(resolve);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.drain);
      }
    });
  }

  private readonly drain = (): void => {
    for (const resolve of this.queue.splice(0, WAKE_SLICE)) resolve();
    if (this.queue.length > 0) setImmediate(this.drain);
    else this.scheduled = false;
  };
}
