import { describe, expect, it } from 'vitest';
import { groupReachOf, type ReachAction, reachOf } from './reach.js';

describe('reachOf', () => {
  it.each<[string, ReachAction, number, number, number | null]>([
    ['widening 25 → 50 % of 2,480 devices, 600 have it', { kind: 'share', to: 50 }, 2480, 600, 640],
    ['widening to 50 % of 8 devices, none has it yet', { kind: 'share', to: 50 }, 8, 0, 4],
    ['a share its devices already fill', { kind: 'share', to: 10 }, 100, 30, 0],
    ['completing: every device that lacks it', { kind: 'complete' }, 2480, 600, 1880],
    ['rounding to whole devices', { kind: 'share', to: 33 }, 10, 0, 3],
    ['no device seen on the track', { kind: 'share', to: 50 }, 0, 0, null],
    ['completing with no device seen', { kind: 'complete' }, 0, 5, null],
    ['reverting: the devices that received it', { kind: 'revert' }, 2480, 600, 600],
    ['reverting before any device received it', { kind: 'revert' }, 2480, 0, 0],
    ['a rollback: every device of the track', { kind: 'whole-track' }, 2480, 0, 2480],
    ['a rollback on a track no device was seen on', { kind: 'whole-track' }, 0, 0, null],
  ])('%s', (_case, action, trackDevices, received, expected) => {
    expect(reachOf(action, { trackDevices, received })).toBe(expected);
  });
});

describe('groupReachOf', () => {
  const ios = { trackDevices: 100, received: 20 };
  const android = { trackDevices: 300, received: 0 };
  const unseen = { trackDevices: 0, received: 0 };
  it.each<[string, ReachAction, Array<{ trackDevices: number; received: number }>, number | null]>([
    ['widening both platforms to 50 %', { kind: 'share', to: 50 }, [ios, android], 30 + 150],
    ['completing both', { kind: 'complete' }, [ios, android], 80 + 300],
    ['reverting both: what each received', { kind: 'revert' }, [ios, android], 20],
    ['rolling both back: every device of both tracks', { kind: 'whole-track' }, [ios, android], 400],
    ['one platform with no device seen: no estimate', { kind: 'whole-track' }, [ios, unseen], null],
    ['no platform', { kind: 'complete' }, [], null],
  ])('%s', (_case, action, platforms, expected) => {
    expect(groupReachOf(action, platforms)).toBe(expected);
  });
});
