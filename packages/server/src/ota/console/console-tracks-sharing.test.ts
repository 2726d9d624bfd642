import { describe, expect, it, vi } from 'vitest';
import { ConsoleReads, type ConsoleReadsDeps } from './console-reads.js';

// The track list is shared by every open console: one read per TRACKS_MAX_AGE_MS, a new one at once
// after a track change. The reads themselves are tested over HTTP (console-read-api.test.ts).
function readsWithCountedLoads() {
  const reads = new ConsoleReads({} as ConsoleReadsDeps);
  let loads = 0;
  vi.spyOn(reads as unknown as { readTracks: () => Promise<unknown[]> }, 'readTracks').mockImplementation(async () => {
    loads++;
    return [{ load: loads }];
  });
  return { reads, loads: () => loads };
}

describe('ConsoleReads.tracks, shared by open consoles', () => {
  it('answers consoles asking at the same time, and right after, from one read', async () => {
    const { reads, loads } = readsWithCountedLoads();
    const answers = await Promise.all(Array.from({ length: 5 }, () => reads.tracks('default')));
    expect(loads()).toBe(1);
    expect(new Set(answers).size).toBe(1);
    await reads.tracks('default');
    expect(loads()).toBe(1);
  });

  it('reads again at once after a track changed', async () => {
    const { reads, loads } = readsWithCountedLoads();
    await reads.tracks('default');
    reads.forgetTracks();
    expect(await reads.tracks('default')).toEqual([{ load: 2 }]);
    expect(loads()).toBe(2);
  });

  it('reads again once the shared read is older than the bound', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const { reads, loads } = readsWithCountedLoads();
      await reads.tracks('default');
      vi.advanceTimersByTime(2001);
      await reads.tracks('default');
      expect(loads()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not keep a failed read', async () => {
    const reads = new ConsoleReads({} as ConsoleReadsDeps);
    const load = vi
      .spyOn(reads as unknown as { readTracks: () => Promise<unknown[]> }, 'readTracks')
      .mockRejectedValueOnce(new Error('database unavailable'))
      .mockResolvedValueOnce([]);
    await expect(reads.tracks('default')).rejects.toThrow('database unavailable');
    expect(await reads.tracks('default')).toEqual([]);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
