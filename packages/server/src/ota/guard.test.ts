import { describe, expect, it } from 'vitest';
import { evaluateGuard, type GuardCandidate, type GuardVerdict } from './guard.js';

const prod = (over: Partial<GuardCandidate> = {}): GuardCandidate => ({
  channel: 'production',
  runtimeVersion: '1.2.0(57)',
  fingerprint: 'new',
  ...over,
});
const stored = (fingerprint: string | null) => ({ id: 'r1', fingerprint });

// The spec's guard rules 2–4 and 6, one row each.
const cases: Array<{
  name: string;
  candidate: GuardCandidate;
  newest?: { id: string; fingerprint: string | null };
  expected: GuardVerdict['kind'];
  reason?: string;
}> = [
  {
    name: 'production, same fingerprint',
    candidate: prod({ fingerprint: 'old' }),
    newest: stored('old'),
    expected: 'pass',
    reason: 'same-fingerprint',
  },
  { name: 'production, different fingerprint blocks', candidate: prod(), newest: stored('old'), expected: 'block' },
  {
    name: 'development channel is never guarded',
    candidate: prod({ channel: 'development' }),
    newest: stored('old'),
    expected: 'pass',
    reason: 'not-production',
  },
  { name: 'no earlier release', candidate: prod(), newest: undefined, expected: 'pass', reason: 'no-earlier-release' },
  {
    name: 'earlier release stored no fingerprint',
    candidate: prod(),
    newest: stored(null),
    expected: 'pass',
    reason: 'no-stored-fingerprint',
  },
  {
    name: 'runtimeVersion ending in -pre',
    candidate: prod({ runtimeVersion: '1.2.0-pre' }),
    newest: stored('old'),
    expected: 'pass',
    reason: 'prerelease',
  },
  {
    name: '-pre only counts at the end',
    candidate: prod({ runtimeVersion: '1.2.0-pre(3)' }),
    newest: stored('old'),
    expected: 'block',
  },
  {
    name: 'no fingerprint given',
    candidate: prod({ fingerprint: undefined }),
    newest: stored('old'),
    expected: 'pass',
    reason: 'no-fingerprint',
  },
  {
    name: 'null fingerprint given',
    candidate: prod({ fingerprint: null }),
    newest: stored('old'),
    expected: 'pass',
    reason: 'no-fingerprint',
  },
  {
    name: 'allowNativeChange skips the comparison',
    candidate: prod({ allowNativeChange: true }),
    newest: stored('old'),
    expected: 'bypass',
  },
  {
    name: 'allowNativeChange false is no bypass',
    candidate: prod({ allowNativeChange: false }),
    newest: stored('old'),
    expected: 'block',
  },
  {
    name: 'allowNativeChange on development is a plain pass',
    candidate: prod({ channel: 'development', allowNativeChange: true }),
    newest: stored('old'),
    expected: 'pass',
    reason: 'not-production',
  },
  {
    name: 'allowNativeChange on -pre is a plain pass',
    candidate: prod({ runtimeVersion: '2.0.0-pre', allowNativeChange: true }),
    newest: stored('old'),
    expected: 'pass',
    reason: 'prerelease',
  },
];

describe('evaluateGuard', () => {
  it.each(cases)('$name → $expected', ({ candidate, newest, expected, reason }) => {
    const verdict = evaluateGuard(candidate, newest);
    expect(verdict.kind).toBe(expected);
    if (reason) expect(verdict).toMatchObject({ reason });
  });

  it('a block names both fingerprints and the baseline release', () => {
    expect(evaluateGuard(prod(), stored('old'))).toEqual({
      kind: 'block',
      storedFingerprint: 'old',
      candidateFingerprint: 'new',
      baselineReleaseId: 'r1',
    });
  });

  it('a bypass reports whether it would have blocked', () => {
    expect(evaluateGuard(prod({ allowNativeChange: true }), stored('old'))).toMatchObject({ wouldHaveBlocked: true });
    expect(evaluateGuard(prod({ allowNativeChange: true, fingerprint: 'old' }), stored('old'))).toMatchObject({
      wouldHaveBlocked: false,
    });
    expect(evaluateGuard(prod({ allowNativeChange: true }), undefined)).toMatchObject({ wouldHaveBlocked: false });
  });
});
