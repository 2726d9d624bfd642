import { describe, expect, it } from 'vitest';
import { combine, type Interleaved, interleave, sliceRatio, slicesOf } from '../../bench/interleaved-runs.js';
import type { WrkResult } from '../../bench/wrk-runner.js';

const result = (requests: number, seconds: number, p99Ms = 2, extra: Partial<WrkResult> = {}): WrkResult => ({
  requests,
  seconds,
  rps: requests / seconds,
  p50Ms: 1,
  p99Ms,
  maxMs: p99Ms * 2,
  errors: { connect: 0, read: 0, write: 0, timeout: 0, status: 0 },
  errorCount: 0,
  wrkCores: 0.5,
  serverCores: 1,
  ...extra,
});

describe('slicesOf', () => {
  it.each([
    [10, 6, 2],
    [5, 2, 3],
    [1, 2, 1],
    [2, 2, 1],
    [20, 10, 2],
  ])('%i s becomes %i slices of %i s: an even number, whole seconds', (seconds, slices, sliceSeconds) => {
    expect(slicesOf(seconds)).toEqual({ slices, sliceSeconds });
  });
});

describe('interleave', () => {
  const recorder = () => {
    const order: string[] = [];
    const run = (name: string) => async (seconds: number) => {
      order.push(`${name}${seconds}`);
      return result(100, seconds);
    };
    return { order, run };
  };

  it('runs every case once per slice, forward then reverse, so each sees the same drift on average', async () => {
    const { order, run } = recorder();
    await interleave({ a: run('a'), b: run('b'), c: run('c') }, 4);
    expect(order).toEqual(['a2', 'b2', 'c2', 'c2', 'b2', 'a2']);
  });

  it('starts in reverse when asked (even rounds)', async () => {
    const { order, run } = recorder();
    await interleave({ a: run('a'), b: run('b') }, 8, true);
    expect(order).toEqual(['b2', 'a2', 'a2', 'b2', 'b2', 'a2', 'a2', 'b2']);
  });

  it('gives each case its slices combined: a server twice as fast in every slice reads twice the rate', async () => {
    let slice = 0;
    // The machine halves its speed after the first slice; both cases see it.
    const speed = () => (slice++ < 2 ? 2 : 1);
    const results = await interleave(
      {
        fast: async (s) => result(2000 * speed() * s, s),
        slow: async (s) => result(1000 * speed() * s, s),
      },
      4,
    );
    expect(results.fast.rps / results.slow.rps).toBeCloseTo(2, 6);
  });
});

describe('combine', () => {
  it('sums requests and errors, takes the rate over the summed time and the worst p99', () => {
    const combined = combine([
      result(1000, 1, 3, { errorCount: 1, errors: { connect: 0, read: 1, write: 0, timeout: 0, status: 0 } }),
      result(3000, 2, 5, { wrkCores: 0.7 }),
    ]);
    expect(combined.requests).toBe(4000);
    expect(combined.seconds).toBe(3);
    expect(combined.rps).toBeCloseTo(4000 / 3, 6);
    expect(combined.p99Ms).toBe(5);
    expect(combined.maxMs).toBe(10);
    expect(combined.errorCount).toBe(1);
    expect(combined.errors.read).toBe(1);
    expect(combined.wrkCores).toBeCloseTo(0.6, 6);
  });
});

describe('sliceRatio', () => {
  const interleaved = (rates: number[]): Interleaved => {
    const slices = rates.map((rate) => result(rate, 1));
    return { ...combine(slices), slices };
  };

  it('compares each slice with the same slice of the other case, and a burst that hit one side does not move it', () => {
    // The machine slows down over the run; in slice 3 a burst slowed only the baseline.
    const ferry = interleaved([900, 800, 700, 600, 500, 400]);
    const baseline = interleaved([1000, 889, 200, 667, 556, 444]);
    expect(sliceRatio(ferry, baseline)).toBeCloseTo(0.9, 2);
    // Summed, the burst would read as Ferry beating its baseline.
    expect(ferry.rps / baseline.rps).toBeGreaterThan(1);
  });

  it('takes the middle of an odd number of slices', () => {
    expect(sliceRatio(interleaved([1, 3, 2]), interleaved([1, 1, 1]))).toBe(2);
  });
});
