import type { ReleaseListItem } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { formatTable, MESSAGE_COLUMN_WIDTH, releaseTable } from './release-table.js';

const item = (over: Partial<ReleaseListItem>): ReleaseListItem => ({
  id: '11111111-1111-4111-8111-111111111111',
  channel: 'production',
  platform: 'ios',
  runtimeVersion: '1.0.0(1)',
  createdAt: '2026-01-02T03:04:05.000Z',
  updatePolicy: null,
  fingerprint: null,
  metadata: {},
  assetCount: 0,
  rollout: null,
  adoption: { last24h: 0, last7d: 0 },
  patches: [],
  ...over,
});

describe('formatTable', () => {
  it('pads columns to the widest cell and trims trailing space', () => {
    expect(
      formatTable(
        ['A', 'BB', 'C'],
        [
          ['xxx', 'y', ''],
          ['', '', 'z'],
        ],
      ),
    ).toBe('A    BB  C\nxxx  y\n         z');
  });
});

describe('releaseTable', () => {
  it('marks the active release and shows policy, short fingerprint and commit, and rollbacks', () => {
    const table = releaseTable([
      item({
        id: '22222222-2222-4222-8222-222222222222',
        updatePolicy: 2,
        fingerprint: 'abcdef0123456789',
        metadata: { commit: '0123456789abcdef', branch: 'main', actor: 'ci', rolledBackFrom: 'r-0' },
      }),
      item({}),
    ]);
    const [header, first, second] = table.split('\n');
    expect(header).toMatch(
      /^\s+RELEASE\s+CREATED\s+POLICY\s+ROLLOUT\s+DEVICES 24H\/7D\s+FINGERPRINT\s+COMMIT\s+BRANCH\s+ACTOR\s+MESSAGE\s+NOTE$/,
    );
    expect(first).toMatch(
      /^\*\s+22222222-.*\s2\s+-\s+0\/0\s+abcdef012345\s+01234567\s+main\s+ci\s+-\s+rollback of r-0$/,
    );
    expect(second).toMatch(/^\s+11111111-.*\s-\s+-\s+0\/0\s+-\s+-\s+-\s+-\s+-$/);
  });

  it('shows the rollout and the devices that ran each release', () => {
    const table = releaseTable([
      item({ rollout: { percent: 10, state: 'running', reason: null }, adoption: { last24h: 12, last7d: 40 } }),
      item({ rollout: { percent: 30, state: 'halted', reason: 'failures' } }),
      item({ rollout: { percent: 100, state: 'complete', reason: null } }),
    ]);
    const [, running, halted, complete] = table.split('\n');
    expect(running).toMatch(/\s10% running\s+12\/40\s/);
    expect(halted).toMatch(/\shalted at 30%\s/);
    expect(complete).toMatch(/\scomplete\s+0\/0\s/);
  });

  it('shows the message, cut to the column width', () => {
    const long = `${'é'.repeat(MESSAGE_COLUMN_WIDTH)}and more`;
    const table = releaseTable([item({ metadata: { message: 'Fix login' } }), item({ metadata: { message: long } })]);
    const [, first, second] = table.split('\n');
    expect(first).toMatch(/\s-\s+Fix login$/);
    expect(second).toContain(`${'é'.repeat(MESSAGE_COLUMN_WIDTH - 1)}…`);
    expect(second).not.toContain('and more');
  });

  it('across tracks: a TRACK column, and * on the newest release of each track', () => {
    const android = { platform: 'android' as const, runtimeVersion: '1.0.0(3)' };
    const table = releaseTable(
      [item({ id: 'a1', ...android }), item({ id: 'i1' }), item({ id: 'a0', ...android }), item({ id: 'i0' })],
      { showTrack: true },
    );
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^\s+RELEASE\s+TRACK\s+CREATED/);
    expect(lines.slice(1).map((line) => line.slice(0, 1))).toEqual(['*', '*', ' ', ' ']);
    expect(lines[1]).toMatch(/^\*\s+a1\s+production\/android\/1\.0\.0\(3\)\s/);
  });

  it('a page that does not start at the newest release marks nothing', () => {
    const table = releaseTable([item({}), item({})], { markNewest: false });
    expect(
      table
        .split('\n')
        .slice(1)
        .every((line) => line.startsWith(' ')),
    ).toBe(true);
  });
});
