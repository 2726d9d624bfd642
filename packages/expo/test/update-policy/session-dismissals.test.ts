import { describe, expect, it, vi } from 'vitest';
import { createDismissedUpdates } from '../../src/update-policy/session-dismissals';

describe('dismissed updates (session memory)', () => {
  it('remembers dismissals per update id', () => {
    const dismissals = createDismissedUpdates();
    dismissals.dismiss('a');
    expect(dismissals.has('a')).toBe(true);
    expect(dismissals.has('b')).toBe(false);
  });

  it('notifies subscribers once per new dismissal and changes the snapshot', () => {
    const dismissals = createDismissedUpdates();
    const listener = vi.fn();
    const unsubscribe = dismissals.subscribe(listener);
    const before = dismissals.getSnapshot();
    dismissals.dismiss('a');
    dismissals.dismiss('a');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(dismissals.getSnapshot()).not.toBe(before);
    unsubscribe();
    dismissals.dismiss('b');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('a new session (a new JavaScript runtime) starts empty', async () => {
    const first = await import('../../src/update-policy/session-dismissals');
    first.sessionDismissals.dismiss('a');
    vi.resetModules();
    const second = await import('../../src/update-policy/session-dismissals');
    expect(second.sessionDismissals).not.toBe(first.sessionDismissals);
    expect(second.sessionDismissals.has('a')).toBe(false);
  });
});
