/**
 * The simulator's clock: real time plus an offset tests can move, so TTLs and approval delays are
 * tested without waiting. Pass `base` to drive it entirely by hand.
 */
export class SimulatorClock {
  private offsetMs = 0;
  constructor(private readonly base: () => number = Date.now) {}
  now(): number {
    return this.base() + this.offsetMs;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  reset(): void {
    this.offsetMs = 0;
  }
}
