/** Waiters woken per event-loop turn when a shared run ends. */
export const WAKE_SLICE = 32;

interface Waiter<V> {
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

interface Flight<V> {
  waiters: Waiter<V>[];
}

/**
 * One run of a piece of work per key at a time, shared by everyone who asks meanwhile, like the
 * shared promise it replaces, with one difference: when the run ends its waiters are woken
 * WAKE_SLICE at a time, one slice per turn of the event loop. A crowd of requests waiting for the
 * same cold track or new asset would otherwise all resume in one microtask drain and hold the loop
 * for as long as all of them take to answer (test/ota/release-day.test.ts).
 */
export class SingleFlight<K, V> {
  private readonly flights = new Map<K, Flight<V>>();

  run(key: K, work: () => Promise<V>): Promise<V> {
    let flight = this.flights.get(key);
    if (!flight) {
      const started: Flight<V> = { waiters: [] };
      flight = started;
      this.flights.set(key, started);
      const settle = (wake: (waiter: Waiter<V>) => void) => {
        if (this.flights.get(key) === started) this.flights.delete(key);
        wakeInSlices(started.waiters, wake);
      };
      work().then(
        (value) => settle((waiter) => waiter.resolve(value)),
        (error: unknown) => settle((waiter) => waiter.reject(error)),
      );
    }
    const joined = flight;
    return new Promise<V>((resolve, reject) => joined.waiters.push({ resolve, reject }));
  }

  /** Forgets a run under way: callers from now on start a new one; its own waiters still get its result. */
  forget(key: K): void {
    this.flights.delete(key);
  }

  clear(): void {
    this.flights.clear();
  }

  has(key: K): boolean {
    return this.flights.has(key);
  }
}

function wakeInSlices<V>(waiters: Waiter<V>[], wake: (waiter: Waiter<V>) => void, from = 0): void {
  const end = Math.min(from + WAKE_SLICE, waiters.length);
  for (let i = from; i < end; i++) wake(waiters[i]!);
  if (end < waiters.length) setImmediate(() => wakeInSlices(waiters, wake, end));
}
