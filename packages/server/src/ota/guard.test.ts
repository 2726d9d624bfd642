import { describe, expect, it } from 'vitest';
import { NATIVE_CHANGE_TABLE, stored, prod as tableCandidate } from '../../../contracts/test/native-change-table.js';
import { evaluateGuard, type GuardCandidate } from './guard.js';

const prod = (over: Partial<GuardCandidate> = {}): GuardCandidate => ({ ...tableCandidate(), ...over });

const newest = (fingerprint: string | null) => ({ id: 'r1', ...stored(fingerprint) });

describe('evaluateGuard', () => {
  // The shared rule's table: the guard blocks (409) exactly where the rule says changed.
  it.each(NATIVE_CHANGE_TABLE)('$name → block $changed', ({ candidate, baseline, changed, reason }) => {
    const verdict = evaluateGuard(candidate, baseline ? { id: 'r1', ...baseline } : undefined);
    expect(verdict.kind).toBe(changed ? 'block' : 'pass');
    if (reason) expect(verdict).toEqual({ kind: 'pass', reason });
  });

  it('a block names both fingerprints and the baseline release', () => {
    expect(evaluateGuard(prod(), newest('old'))).toEqual({
      kind: 'block',
      storedFingerprint: 'old',
      candidateFingerprint: 'new',
      baselineReleaseId: 'r1',
    });
  });

  // Rule 6: allowNativeChange.
  it.each([
    { name: 'skips the comparison', candidate: prod({ allowNativeChange: true }), kind: 'bypass' },
    { name: 'false is no bypass', candidate: prod({ allowNativeChange: false }), kind: 'block' },
    {
      name: 'on development is a plain pass',
      candidate: prod({ channel: 'development', allowNativeChange: true }),
      kind: 'pass',
    },
    {
      name: 'on -pre is a plain pass',
      candidate: prod({ runtimeVersion: '2.0.0-pre', allowNativeChange: true }),
      kind: 'pass',
    },
  ])('allowNativeChange $name', ({ candidate, kind }) => {
    expect(evaluateGuard(candidate, newest('old')).kind).toBe(kind);
  });

  it('a bypass reports both fingerprints and whether it would have blocked', () => {
    expect(evaluateGuard(prod({ allowNativeChange: true }), newest('old'))).toEqual({
      kind: 'bypass',
      storedFingerprint: 'old',
      candidateFingerprint: 'new',
      wouldHaveBlocked: true,
    });
    expect(evaluateGuard(prod({ allowNativeChange: true, fingerprint: 'old' }), newest('old'))).toMatchObject({
      wouldHaveBlocked: false,
    });
    expect(evaluateGuard(prod({ allowNativeChange: true }), undefined)).toEqual({
      kind: 'bypass',
      storedFingerprint: null,
      candidateFingerprint: 'new',
      wouldHaveBlocked: false,
    });
    expect(evaluateGuard(prod({ allowNativeChange: true, fingerprint: null }), newest('old'))).toMatchObject({
      candidateFingerprint: null,
      wouldHaveBlocked: false,
    });
  });
});
