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

/**
 * How much synchronous work one turn of the event loop may take: `take()` says yes `perTurn` times
 * per turn and no after that, until the next turn. Free in steady state (a counter, and one
 * setImmediate per busy turn); when a crowd's requests all arrive in one turn, the ones past the
 * budget can wait for a TurnPacer instead of holding the loop.
 */
export class TurnBudget {
  private used = 0;
  private resetScheduled = false;

  constructor(private readonly perTurn: number) {}

  take(): boolean {
    if (!this.resetScheduled) {
      this.resetScheduled = true;
      setImmediate(this.reset);
    }
    return ++this.used <= this.perTurn;
  }

  private readonly reset = (): void => {
    this.used = 0;
    this.resetScheduled = false;
  };
}
