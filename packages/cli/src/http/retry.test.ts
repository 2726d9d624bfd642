import { describe, expect, it } from 'vitest';
import { withRetries } from './retry.js';

const noSleep = { attempts: 3, baseDelayMs: 100, sleep: async () => {} };

describe('withRetries', () => {
  it('retries transient failures up to the attempt limit, then rethrows', async () => {
    let calls = 0;
    const retried: number[] = [];
    await expect(
      withRetries(
        async () => {
          calls++;
          throw new Error('boom');
        },
        () => true,
        noSleep,
        (_e, attempt) => retried.push(attempt),
      ),
    ).rejects.toThrow('boom');
    expect(calls).toBe(3);
    expect(retried).toEqual([1, 2]);
  });

  it('stops at once on a final failure, and returns the first success', async () => {
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls++;
          throw new Error('final');
        },
        () => false,
        noSleep,
      ),
    ).rejects.toThrow('final');
    expect(calls).toBe(1);
    expect(
      await withRetries(
        async (attempt) => (attempt < 2 ? Promise.reject(new Error('x')) : 'ok'),
        () => true,
        noSleep,
      ),
    ).toBe('ok');
  });

  it('backs off exponentially (with jitter within half the delay)', async () => {
    const delays: number[] = [];
    await withRetries(
      async (attempt) => {
        if (attempt < 4) throw new Error('again');
      },
      () => true,
      { attempts: 4, baseDelayMs: 100, sleep: async (ms) => void delays.push(ms) },
    );
    expect(delays).toHaveLength(3);
    delays.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(50 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(100 * 2 ** i);
    });
  });
});
