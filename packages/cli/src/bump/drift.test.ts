import { describe, expect, it } from 'vitest';
import { NATIVE_CHANGE_TABLE } from '../../../contracts/test/native-change-table.js';
import type { BaselineLookup, Inspection } from '../gate/gate-verdict.js';
import { driftVerdict } from './drift.js';

const head: Inspection = { ok: true, runtimeVersion: '1.4.0(17)', fingerprint: 'fp-head' };

describe('driftVerdict', () => {
  // The shared rule's table: `ferry bump --if-drift` bumps exactly where a production publish would get 409.
  const judgeable = NATIVE_CHANGE_TABLE.filter(
    (row) => row.candidate.channel === 'production' && typeof row.candidate.fingerprint === 'string',
  );
  it.each(judgeable)('$name → drift $changed', ({ candidate, baseline, changed }) => {
    const inspection: Inspection = {
      ok: true,
      runtimeVersion: candidate.runtimeVersion,
      fingerprint: candidate.fingerprint as string,
    };
    const lookup: BaselineLookup = baseline
      ? { kind: 'found', fingerprint: baseline.fingerprint, releaseId: 'r-1' }
      : { kind: 'no-release' };
    expect(driftVerdict('android', inspection, lookup).drift).toBe(changed);
  });

  it.each([
    ['no server given', undefined],
    ['no server given (lookup)', { kind: 'no-server' } as const],
    ['unreachable', { kind: 'unreachable', message: 'ECONNREFUSED' } as const],
    ['endpoint missing', { kind: 'endpoint-not-found', message: '404' } as const],
    ['server failed', { kind: 'failed', message: '503' } as const],
  ])('%s → unknown: a bump must not guess', (_name, lookup) => {
    expect(driftVerdict('ios', head, lookup).drift).toBe('unknown');
  });

  it('a failed inspection is unknown and says why', () => {
    expect(driftVerdict('ios', { ok: false, error: 'no app.json' }, { kind: 'no-release' })).toEqual({
      platform: 'ios',
      drift: 'unknown',
      message: 'ios: no app.json',
    });
  });

  it('a pre-release track never drifts, whatever the server says', () => {
    const pre: Inspection = { ok: true, runtimeVersion: '1.4.0-pre', fingerprint: 'x' };
    expect(driftVerdict('ios', pre, { kind: 'found', fingerprint: 'y', releaseId: 'r' }).drift).toBe(false);
    expect(driftVerdict('ios', pre, undefined).drift).toBe(false);
  });

  it('messages name the reason and both fingerprints', () => {
    expect(driftVerdict('ios', head, { kind: 'no-release' }).message).toMatch(/new track/);
    expect(driftVerdict('ios', head, { kind: 'found', fingerprint: null, releaseId: 'r' }).message).toMatch(
      /stored no fingerprint/,
    );
    expect(driftVerdict('ios', head, { kind: 'found', fingerprint: 'fp-head', releaseId: 'r' }).message).toMatch(
      /matches/,
    );
    expect(driftVerdict('ios', head, { kind: 'found', fingerprint: 'fp-base-0123456', releaseId: 'r' }).message).toBe(
      'ios: the fingerprint drifted from the production baseline of 1.4.0(17) (fp-base-0123 → fp-head)',
    );
  });
});
