import type { ReleaseListItem } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { formatTable, releaseTable } from './release-table.js';

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
    expect(header).toMatch(/^\s+RELEASE\s+CREATED\s+POLICY\s+FINGERPRINT\s+COMMIT\s+BRANCH\s+ACTOR\s+NOTE$/);
    expect(first).toMatch(/^\*\s+22222222-.*\s2\s+abcdef012345\s+01234567\s+main\s+ci\s+rollback of r-0$/);
    expect(second).toMatch(/^\s+11111111-.*\s-\s+-\s+-\s+-\s+-$/);
  });
});
