import type { ConsoleTrack } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { rowsOf } from './track-rows.js';

const track = (platform: 'ios' | 'android', runtimeVersion: string, activeGroupId: string | null): ConsoleTrack => ({
  channel: 'production',
  platform,
  runtimeVersion,
  activeReleaseId: null,
  activeGroupId,
  message: null,
  rolloutPercent: 100,
  state: 'complete',
  adoption24h: 0,
  failureRate: null,
  lastPublishAt: '2026-11-28T00:00:00.000Z',
  guardBlocks: 0,
  guardBypasses: 0,
});
const G1 = '11111111-1111-4111-8111-111111111111';
const G2 = '22222222-2222-4222-8222-222222222222';

describe('rowsOf', () => {
  it.each<[string, ConsoleTrack[], Array<[string | null, string[]]>]>([
    [
      'both platforms of one group: one row, iOS first',
      [track('android', '1', G1), track('ios', '1', G1)],
      [[G1, ['ios', 'android']]],
    ],
    [
      'different groups: a row each',
      [track('ios', '1', G1), track('android', '1', G2)],
      [
        [G1, ['ios']],
        [G2, ['android']],
      ],
    ],
    [
      'no group: a row per track',
      [track('ios', '1', null), track('android', '1', null)],
      [
        [null, ['ios']],
        [null, ['android']],
      ],
    ],
    [
      'a group among other tracks keeps the place of its first track',
      [track('ios', '2', null), track('android', '1', G1), track('ios', '3', null), track('ios', '1', G1)],
      [
        [null, ['ios']],
        [G1, ['ios', 'android']],
        [null, ['ios']],
      ],
    ],
  ])('%s', (_case, tracks, expected) => {
    expect(rowsOf(tracks).map((row) => [row.groupId, row.tracks.map((t) => t.platform)])).toEqual(expected);
  });
});
