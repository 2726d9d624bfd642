import type { BundlePatch, ReleaseListItem } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { formatTable, MESSAGE_COLUMN_WIDTH, patchesCell, releaseTable } from './release-table.js';

const item = (over: Partial<ReleaseListItem>): ReleaseListItem => ({
  id: '11111111-1111-4111-8111-111111111111',
  channel: 'production',
  platform: 'ios',
  runtimeVersion: '1.0.0(1)',
  createdAt: '2026-01-02T03:04:05.000Z',
  updatePolicy: null,
  fingerprint: null,
  groupId: null,
  metadata: {},
  assetCount: 0,
  rollout: null,
  adoption: { last24h: 0, last7d: 0 },
  patches: [],
  ...over,
});

const patch = (
  state: BundlePatch['state'],
  bytes: number | null,
  fullBytes: number | null,
  kind: BundlePatch['base']['kind'] = 'release',
): BundlePatch => ({ base: { kind, updateId: '33333333-3333-4333-8333-333333333333' }, state, bytes, fullBytes });

describe('patchesCell', () => {
  it('counts the patches per state, ready first, with each ready one’s share of the full download', () => {
    expect(patchesCell([])).toBe('-');
    expect(patchesCell([patch('ready', 300, 1000), patch('ready', 125, 1000)])).toBe('2 ready (30%·13%)');
    expect(patchesCell([patch('larger', 900, 1000), patch('pending', null, null), patch('ready', 5, 1000)])).toBe(
      '1 ready (1%), 1 pending, 1 larger',
    );
    expect(patchesCell([patch('failed', null, null)])).toBe('1 failed');
  });

  it('a share not yet measured is ?, and a tiny patch is <1%, never 0%', () => {
    expect(patchesCell([patch('ready', 10, null), patch('ready', 1, 1000), patch('ready', 0, 0)])).toBe(
      '3 ready (?·<1%·?)',
    );
  });
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
      /^\s+RELEASE\s+GROUP\s+CREATED\s+POLICY\s+ROLLOUT\s+DEVICES 24H\/7D\s+PATCHES\s+FINGERPRINT\s+COMMIT\s+BRANCH\s+ACTOR\s+MESSAGE\s+NOTE$/,
    );
    expect(first).toMatch(
      /^\*\s+22222222-.*\s2\s+-\s+0\/0\s+-\s+abcdef012345\s+01234567\s+main\s+ci\s+-\s+rollback of r-0$/,
    );
    expect(second).toMatch(/^\s+11111111-.*\s-\s+-\s+0\/0\s+-\s+-\s+-\s+-\s+-\s+-$/);
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

  it('shows each release’s bundle patches by state, the offered ones as a share of the full download', () => {
    const table = releaseTable([
      item({
        patches: [
          patch('ready', 310, 1000),
          patch('pending', null, null),
          patch('ready', 440, 1000, 'embedded'),
          patch('failed', null, 1000),
        ],
      }),
      item({ patches: [] }),
    ]);
    const [, first, second] = table.split('\n');
    expect(first).toMatch(/\s0\/0\s+2 ready \(31%·44%\), 1 pending, 1 failed\s+-\s/);
    expect(second).toMatch(/\s0\/0\s+-\s+-\s/);
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
    expect(lines[0]).toMatch(/^\s+RELEASE\s+TRACK\s+GROUP\s+CREATED/);
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
