import type { RolloutState } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { type KeepReason, type ReleaseForGc, releasesToKeep } from './releases-to-keep.js';

/**
 * A track written oldest first as `name:state`, state `-` for no rollout, e.g. `a:- b:- c:running`.
 * Each release is one millisecond after the one before it.
 */
const track = (spec: string, over: Partial<ReleaseForGc> = {}): ReleaseForGc[] =>
  spec
    .split(/\s+/)
    .filter(Boolean)
    .map((entry, index) => {
      const [id, state] = entry.split(':') as [string, string];
      return {
        id,
        app: 'default',
        channel: 'production',
        platform: 'ios',
        runtimeVersion: '1.0.0(1)',
        createdAt: 1_000 + index,
        seq: index + 1,
        rolloutState: state === '-' ? null : (state as RolloutState),
        ...over,
      };
    });

/** The kept releases as `id: reasons` strings, sorted by id, for tables that read at a glance. */
const kept = (releases: ReleaseForGc[], keep: number): string[] =>
  [...releasesToKeep(releases, keep)].map(([id, reasons]) => `${id}: ${reasons.join(',')}`).sort();

const TABLE: Array<{ name: string; releases: string; keep: number; kept: string[] }> = [
  { name: 'an empty track keeps nothing', releases: '', keep: 3, kept: [] },
  {
    name: 'one release is head, fallback and recent',
    releases: 'a:-',
    keep: 1,
    kept: ['a: head,fallback,recent'],
  },
  {
    name: 'the newest N of plain releases',
    releases: 'a:- b:- c:- d:- e:-',
    keep: 2,
    kept: ['d: recent', 'e: head,fallback,recent'],
  },
  { name: 'keep 1 keeps only the head', releases: 'a:- b:- c:-', keep: 1, kept: ['c: head,fallback,recent'] },
  {
    name: 'N larger than the track keeps all',
    releases: 'a:- b:-',
    keep: 10,
    kept: ['a: recent', 'b: head,fallback,recent'],
  },
  {
    name: 'a running rollout at the head: its fallback is the newest complete release, however old',
    releases: 'a:- b:- c:- d:running',
    keep: 1,
    kept: ['c: fallback', 'd: head,rollout,recent'],
  },
  {
    name: 'a completed rollout counts as complete: it is the fallback',
    releases: 'a:- b:complete c:running',
    keep: 1,
    kept: ['b: fallback', 'c: head,rollout,recent'],
  },
  {
    name: 'a halted rollout is kept (it may be resumed), beyond N',
    releases: 'a:- b:halted c:- d:- e:-',
    keep: 2,
    kept: ['b: rollout', 'd: recent', 'e: head,fallback,recent'],
  },
  {
    name: 'a running rollout older than N is kept',
    releases: 'a:running b:- c:-',
    keep: 1,
    kept: ['a: rollout', 'c: head,fallback,recent'],
  },
  {
    name: 'reverted and superseded rollouts are not kept beyond N, nor are they a fallback',
    releases: 'a:- b:reverted c:superseded d:reverted',
    keep: 1,
    kept: ['a: fallback', 'd: head,recent'],
  },
  {
    name: 'reverted within N is kept as recent',
    releases: 'a:- b:reverted c:-',
    keep: 2,
    kept: ['b: recent', 'c: head,fallback,recent'],
  },
  {
    name: 'a reverted head is still the head (the newest entry of its track)',
    releases: 'a:- b:- c:reverted',
    keep: 1,
    kept: ['b: fallback', 'c: head,recent'],
  },
  {
    name: 'no complete release at all: no fallback',
    releases: 'a:reverted b:superseded c:running',
    keep: 1,
    kept: ['c: head,rollout,recent'],
  },
  {
    name: 'several running and halted rollouts are all kept',
    releases: 'a:- b:halted c:running d:superseded e:running',
    keep: 1,
    kept: ['a: fallback', 'b: rollout', 'c: rollout', 'e: head,rollout,recent'],
  },
];

describe('releasesToKeep', () => {
  it.each(TABLE)('$name', ({ releases, keep, kept: expected }) => {
    expect(kept(track(releases), keep)).toEqual(expected);
  });

  it('decides per track: app, channel, platform and runtimeVersion each make a track of their own', () => {
    const releases = [
      ...track('a:- b:-'),
      ...track('c:- d:-', { platform: 'android' }),
      ...track('e:- f:-', { channel: 'development' }),
      ...track('g:- h:-', { runtimeVersion: '1.0.0(2)' }),
      ...track('i:- j:-', { app: 'shop' }),
    ];
    expect(kept(releases, 1)).toEqual([
      'b: head,fallback,recent',
      'd: head,fallback,recent',
      'f: head,fallback,recent',
      'h: head,fallback,recent',
      'j: head,fallback,recent',
    ]);
  });

  it('orders by createdAt, then by sequence, whatever order the rows come in', () => {
    const releases = [
      { ...track('x:-')[0]!, id: 'later-seq', createdAt: 5, seq: 9 },
      { ...track('x:-')[0]!, id: 'newest', createdAt: 6, seq: 1 },
      { ...track('x:-')[0]!, id: 'earlier-seq', createdAt: 5, seq: 8 },
      { ...track('x:-')[0]!, id: 'oldest', createdAt: 1, seq: 10 },
    ];
    expect(kept(releases, 2)).toEqual(['later-seq: recent', 'newest: head,fallback,recent']);
    expect(kept(releases.reverse(), 3)).toEqual([
      'earlier-seq: recent',
      'later-seq: recent',
      'newest: head,fallback,recent',
    ]);
  });

  it('never keeps fewer than the head, the fallback and the active rollouts, whatever N', () => {
    const releases = track('a:- b:halted c:- d:running e:reverted');
    for (const keep of [1, 2, 3, 10]) {
      const ids = [...releasesToKeep(releases, keep).keys()];
      expect(ids).toEqual(expect.arrayContaining(['e', 'c', 'd', 'b']));
      const reasons = new Set([...releasesToKeep(releases, keep).values()].flat());
      expect(reasons).toEqual(new Set<KeepReason>(['head', 'fallback', 'rollout', 'recent']));
    }
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses keepPerTrack %s', (keep) => {
    expect(() => releasesToKeep(track('a:-'), keep)).toThrow(RangeError);
  });
});
