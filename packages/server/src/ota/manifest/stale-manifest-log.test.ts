import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { Track } from '../app-track.js';
import { StaleManifestLog } from './stale-manifest-log.js';

const track = (runtimeVersion: string): Track => ({
  app: 'default',
  channel: 'production',
  platform: 'ios',
  runtimeVersion,
});
const down = new Error('connect ECONNREFUSED');

function staleLog() {
  const log = { warn: vi.fn(), info: vi.fn() };
  const counted = vi.fn();
  return { log, counted, stale: new StaleManifestLog(log as unknown as FastifyBaseLogger, 3_600_000, counted) };
}

describe('StaleManifestLog', () => {
  it('warns once when a burst starts, once at its first drop at the limit, and says when it ends', () => {
    const { log, stale } = staleLog();
    stale.reloadFailed(track('1'), down, 1);
    stale.reloadFailed(track('2'), down, 2);
    stale.reloadFailed(track('3'), down, 3);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0]).toEqual([
      { err: down, track: track('1'), staleIfErrorSeconds: 3_600 },
      expect.stringContaining('could not reload a cached manifest'),
    ]);
    stale.staleEnded(track('1'), true, 2);
    stale.staleEnded(track('2'), true, 1);
    expect(log.warn).toHaveBeenCalledTimes(2);
    expect(log.warn.mock.calls[1]?.[1]).toContain('MANIFEST_STALE_IF_ERROR_SECONDS');
    expect(log.info).not.toHaveBeenCalled();
    stale.staleEnded(track('3'), false, 0);
    expect(log.info).toHaveBeenCalledExactlyOnceWith('no cached manifest is served stale any more');

    // The next outage is told again.
    stale.reloadFailed(track('1'), down, 1);
    stale.staleEnded(track('1'), true, 0);
    expect(log.warn).toHaveBeenCalledTimes(4);
  });

  it('counts every stale answer', () => {
    const { counted, stale } = staleLog();
    for (let i = 0; i < 3; i++) stale.servedStale();
    expect(counted).toHaveBeenCalledTimes(3);
  });
});
