import { afterEach, describe, expect, it, vi } from 'vitest';
import { shouldWatchParent, watchParent } from './parent-watch.js';

describe('shouldWatchParent', () => {
  it.each([
    ['npm start (run-script)', { npm_lifecycle_event: 'start' }, true],
    ['npx ferry-server (npm exec)', { npm_lifecycle_event: 'npx' }, true],
    ['node directly, a container, systemd', {}, false],
    ['an npm variable that is not the lifecycle event', { npm_config_cache: '/tmp' }, false],
  ])('%s → %s', (_name, env, expected) => {
    expect(shouldWatchParent(env)).toBe(expected);
  });
});

describe('watchParent', () => {
  afterEach(() => vi.useRealTimers());

  it('calls back once, when the parent id changes (re-parented after the parent exited)', () => {
    vi.useFakeTimers();
    let parent = 4242;
    const gone = vi.fn();
    watchParent(gone, { parentId: () => parent, intervalMs: 100 });
    vi.advanceTimersByTime(1000);
    expect(gone).not.toHaveBeenCalled();
    parent = 1;
    vi.advanceTimersByTime(100);
    expect(gone).toHaveBeenCalledTimes(1);
    parent = 77;
    vi.advanceTimersByTime(1000);
    expect(gone).toHaveBeenCalledTimes(1);
  });

  it('stops watching when told to', () => {
    vi.useFakeTimers();
    let parent = 4242;
    const gone = vi.fn();
    const stop = watchParent(gone, { parentId: () => parent, intervalMs: 100 });
    stop();
    parent = 1;
    vi.advanceTimersByTime(1000);
    expect(gone).not.toHaveBeenCalled();
  });
});
