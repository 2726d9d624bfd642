import { describe, expect, it } from 'vitest';
import { NATIVE_CHANGE_TABLE, prod, stored } from '../../test/native-change-table.js';
import { isGuardedTrack, nativeChangeVerdict } from './native-change.js';

describe('nativeChangeVerdict', () => {
  it.each(NATIVE_CHANGE_TABLE)('$name → changed $changed', ({ candidate, baseline, changed, reason }) => {
    const verdict = nativeChangeVerdict(candidate, baseline);
    expect(verdict.changed).toBe(changed);
    if (reason) expect(verdict).toEqual({ changed: false, reason });
  });

  it('a change names both fingerprints', () => {
    expect(nativeChangeVerdict(prod(), stored('old'))).toEqual({
      changed: true,
      storedFingerprint: 'old',
      candidateFingerprint: 'new',
      baseline: { fingerprint: 'old' },
    });
  });
});

describe('isGuardedTrack', () => {
  it.each([
    ['production', '1.0.0(1)', true],
    ['production', '1.0.0-pre', false],
    ['production', '1.0.0-pre(2)', true],
    ['development', '1.0.0(1)', false],
    ['development', '1.0.0-pre', false],
  ] as const)('%s %s → %s', (channel, runtimeVersion, guarded) => {
    expect(isGuardedTrack(channel, runtimeVersion)).toBe(guarded);
  });
});
