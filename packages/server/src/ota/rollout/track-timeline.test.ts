import { randomUUID } from 'node:crypto';
import { ROLLOUT_STATES, type RolloutState } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { rolloutBucket } from './rollout-bucket.js';
import { chooseEntry, choosesByClient, type Timeline } from './track-timeline.js';

const timeline = (rollout?: { percent: number; state: RolloutState }, fallback: string | null = 'fallback') =>
  ({
    head: 'head',
    rollout: rollout && { releaseId: 'r', ...rollout },
    fallback: fallback ?? undefined,
  }) satisfies Timeline<string>;

// Bucket of the device: a fixed value per row, so the table reads as the rule.
const bucket = (value: number) => () => value;

describe('chooseEntry (the rollout selection rule)', () => {
  it.each([
    // [case, timeline, client id, device bucket, expected]
    ['no rollout: the head', timeline(), 'device', 99, 'head'],
    ['no rollout, no client id: the head', timeline(), undefined, 0, 'head'],
    ['complete rollout: the head', timeline({ percent: 100, state: 'complete' }), undefined, 99, 'head'],
    ['running, bucket below the percent: the head', timeline({ percent: 10, state: 'running' }), 'd', 9.99, 'head'],
    ['running, bucket at the percent: the fallback', timeline({ percent: 10, state: 'running' }), 'd', 10, 'fallback'],
    ['running, bucket above: the fallback', timeline({ percent: 10, state: 'running' }), 'd', 50, 'fallback'],
    ['running, no client id: the fallback', timeline({ percent: 99, state: 'running' }), undefined, 0, 'fallback'],
    ['halted: the fallback, even inside', timeline({ percent: 50, state: 'halted' }), 'd', 1, 'fallback'],
    ['reverted: the fallback', timeline({ percent: 50, state: 'reverted' }), 'd', 1, 'fallback'],
    ['superseded: the fallback', timeline({ percent: 50, state: 'superseded' }), 'd', 1, 'fallback'],
    ['outside, no fallback: nothing', timeline({ percent: 10, state: 'running' }, null), 'd', 50, undefined],
    ['no client id, no fallback: nothing', timeline({ percent: 10, state: 'running' }, null), undefined, 0, undefined],
  ] as const)('%s', (_case, track, clientId, value, expected) => {
    expect(chooseEntry(track, clientId, bucket(value))).toBe(expected);
  });

  it('an empty track serves nothing', () => {
    expect(chooseEntry({ head: undefined, rollout: undefined, fallback: undefined }, 'd')).toBeUndefined();
  });
});

describe('choosesByClient', () => {
  // True exactly when chooseEntry gives two devices different entries: inside, outside, no client id.
  it.each([
    ['no rollout', timeline(), false],
    ...ROLLOUT_STATES.map((state) => [state, timeline({ percent: 50, state }), state === 'running'] as const),
  ] as const)('%s: %s', (_case, track, expected) => {
    const entries = new Set([
      chooseEntry(track, 'd', bucket(0)),
      chooseEntry(track, 'd', bucket(99)),
      chooseEntry(track, undefined, bucket(0)),
    ]);
    expect(choosesByClient(track)).toBe(expected);
    expect(entries.size > 1).toBe(expected);
  });
});

describe('rolloutBucket', () => {
  const clients = Array.from({ length: 10_000 }, () => randomUUID());
  const release = randomUUID();

  it('is stable: the same device and release always land in the same bucket', () => {
    for (const client of clients.slice(0, 100))
      expect(rolloutBucket(client, release)).toBe(rolloutBucket(client, release));
  });

  it.each([1, 10, 25, 50, 90])('puts %i percent of 10,000 client ids inside, within ±2 points', (percent) => {
    const inside = clients.filter((client) => rolloutBucket(client, release) < percent).length;
    expect(Math.abs((inside / clients.length) * 100 - percent)).toBeLessThanOrEqual(2);
  });

  it('grows monotonically: every device inside at 10 % is inside at 50 %', () => {
    const at = (percent: number) =>
      new Set(
        clients.filter(
          (client) =>
            chooseEntry(timeline({ percent, state: 'running' }), client, (c) => rolloutBucket(c, release)) === 'head',
        ),
      );
    const ten = at(10);
    const fifty = at(50);
    expect(ten.size).toBeGreaterThan(0);
    for (const client of ten) expect(fifty.has(client)).toBe(true);
  });

  it('draws each release independently: the first 10 % of one release are not the first of the next', () => {
    const other = randomUUID();
    const first = clients.filter((client) => rolloutBucket(client, release) < 10);
    const overlap = first.filter((client) => rolloutBucket(client, other) < 10).length;
    // Independent draws overlap by about 10 % of 1,000; identical ones by 100 %.
    expect(overlap / first.length).toBeLessThan(0.3);
  });
});
