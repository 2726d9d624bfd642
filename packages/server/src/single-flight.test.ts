import { describe, expect, it } from 'vitest';
import { SingleFlight, WAKE_SLICE } from './single-flight.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SingleFlight', () => {
  it('runs the work once for everyone who asks meanwhile, and again once it ended', async () => {
    const flights = new SingleFlight<string, number>();
    let runs = 0;
    let finish!: (value: number) => void;
    const work = () => {
      runs++;
      return new Promise<number>((resolve) => {
        finish = resolve;
      });
    };
    const waiting = [flights.run('k', work), flights.run('k', work), flights.run('k', work)];
    expect(runs).toBe(1);
    finish(7);
    expect(await Promise.all(waiting)).toEqual([7, 7, 7]);
    expect(flights.has('k')).toBe(false);
    const again = flights.run('k', work);
    finish(8);
    expect(await again).toBe(8);
    expect(runs).toBe(2);
  });

  it('hands a failure to every waiter', async () => {
    const flights = new SingleFlight<string, number>();
    const waiting = [1, 2, 3].map(() => flights.run('k', () => Promise.reject(new Error('down'))));
    for (const result of await Promise.allSettled(waiting)) {
      expect(result).toMatchObject({ status: 'rejected', reason: { message: 'down' } });
    }
  });

  it('wakes a crowd a slice per event-loop turn', async () => {
    const flights = new SingleFlight<string, number>();
    let finish!: (value: number) => void;
    const work = () =>
      new Promise<number>((resolve) => {
        finish = resolve;
      });
    const woken: number[] = [];
    const crowd = Array.from({ length: WAKE_SLICE * 3 }, (_, i) => flights.run('k', work).then(() => woken.push(i)));
    finish(1);
    await turn();
    expect(woken.length).toBeGreaterThanOrEqual(WAKE_SLICE);
    expect(woken.length).toBeLessThan(WAKE_SLICE * 3);
    await Promise.all(crowd);
    expect(woken).toHaveLength(WAKE_SLICE * 3);
    // In the order they asked.
    expect(woken).toEqual([...woken].sort((a, b) => a - b));
  });

  it('forget lets the next caller start afresh while the earlier waiters keep their own run', async () => {
    const flights = new SingleFlight<string, string>();
    const finishers: Array<(value: string) => void> = [];
    const work = () => new Promise<string>((resolve) => finishers.push(resolve));
    const early = flights.run('k', work);
    flights.forget('k');
    const late = flights.run('k', work);
    expect(finishers).toHaveLength(2);
    finishers[1]!('new');
    finishers[0]!('old');
    expect(await early).toBe('old');
    expect(await late).toBe('new');
  });
});
