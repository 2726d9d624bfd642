import type { Release } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import type { Track } from './app-track.js';
import { decideRollback, type RollbackDecision, rollbackRecord } from './rollback.js';

const track: Track = { app: 'default', channel: 'production', platform: 'ios', runtimeVersion: '1.0.0(1)' };
const release = (id: string, over: Partial<Release> = {}): Release => ({
  id,
  ...track,
  launchAsset: { url: `https://cdn.test/${id}.hbc`, hash: 'a'.repeat(43) },
  assets: [],
  otaConfig: { name: id },
  updatePolicy: 2,
  metadata: { fingerprint: `fp-${id}`, commit: `c-${id}`, branch: 'main', actor: 'ci', runId: `run-${id}` },
  createdAt: '2026-01-01T00:00:00.000Z',
  groupId: null,
  ...over,
});
const [a, b, c] = [release('a'), release('b'), release('c')];
const otherTrack = release('x', { platform: 'android' });

// [name, recent (newest first), to, requested, expected kind, expected source, embedded served]
const rows: Array<
  [string, Release[], string | undefined, Release | undefined, RollbackDecision['kind'], string?, boolean?]
> = [
  ['empty track', [], undefined, undefined, 'empty-track'],
  ['empty track with --to', [], 'a', a, 'empty-track'],
  ['only one release', [c], undefined, undefined, 'no-earlier-release'],
  ['default: the release before the newest', [c, b], undefined, undefined, 'restore', 'b'],
  ['--to an older release', [c, b], 'a', a, 'restore', 'a'],
  ['--to the previous release', [c, b], 'b', b, 'restore', 'b'],
  ['--to the active release', [c, b], 'c', c, 'already-active'],
  ['--to an unknown id', [c, b], 'zzz', undefined, 'not-in-track'],
  ['--to a release of another track', [c, b], 'x', otherTrack, 'not-in-track'],
  ['--to with a single release that is active', [c], 'c', c, 'already-active'],
  ['after a roll back to embedded: --to the newest release', [c, b], 'c', c, 'restore', 'c', true],
  ['after a roll back to embedded: --to the only release', [c], 'c', c, 'restore', 'c', true],
  [
    'after a roll back to embedded: the default is still the one before',
    [c, b],
    undefined,
    undefined,
    'restore',
    'b',
    true,
  ],
  ['after a roll back to embedded: --to an older release', [c, b], 'a', a, 'restore', 'a', true],
];

describe('decideRollback', () => {
  it.each(rows)('%s → %s', (_name, recent, to, requested, kind, source, embeddedIsServed) => {
    const decision = decideRollback({ track, recent, to, requested, embeddedIsServed });
    expect(decision.kind).toBe(kind);
    if (decision.kind === 'restore') {
      expect(decision.source.id).toBe(source);
      expect(decision.replaced.id).toBe(recent[0]?.id);
    }
  });
});

describe('rollbackRecord', () => {
  it('copies content, update policy and fingerprint, and records where it came from', () => {
    const createdAt = new Date('2026-02-02T00:00:00.000Z');
    const record = rollbackRecord(b, { id: 'new', createdAt, actor: 'alice', runId: '99', groupId: 'g' });
    expect(record).toEqual({
      id: 'new',
      ...track,
      launchAsset: b.launchAsset,
      assets: b.assets,
      otaConfig: b.otaConfig,
      updatePolicy: 2,
      metadata: {
        fingerprint: 'fp-b',
        commit: 'c-b',
        branch: 'main',
        actor: 'alice',
        runId: '99',
        rolledBackFrom: 'b',
      },
      createdAt,
      groupId: 'g',
    });
  });

  it('keeps the original actor and run when the caller names none, and a null fingerprint stays null', () => {
    const record = rollbackRecord(release('n', { metadata: { actor: 'ci', runId: '7' }, updatePolicy: null }), {
      id: 'new',
      createdAt: new Date(),
      groupId: 'g',
    });
    expect(record.metadata).toEqual({ actor: 'ci', runId: '7', fingerprint: null, rolledBackFrom: 'n' });
    expect(record.updatePolicy).toBeNull();
  });

  it('a copy of a promoted release does not say it was promoted: it was rolled back', () => {
    const promoted = release('p', { metadata: { actor: 'ci', promotedFrom: 'src' } });
    const record = rollbackRecord(promoted, { id: 'new', createdAt: new Date(), groupId: 'g' });
    expect(record.metadata).toEqual({ actor: 'ci', fingerprint: null, rolledBackFrom: 'p' });
  });
});
