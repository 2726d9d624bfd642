import type { NativeChangeBaseline, NativeChangeCandidate } from '../src/ota/native-change.js';

export const prod = (over: Partial<NativeChangeCandidate> = {}): NativeChangeCandidate => ({
  channel: 'production',
  runtimeVersion: '1.2.0(57)',
  fingerprint: 'new',
  ...over,
});
export const stored = (fingerprint: string | null) => ({ fingerprint });

/**
 * The seed's guard table (spec, POST /api/updates/release rules 2–4), one row each. The server's
 * guard, the CLI's gate and the bump's drift check are all tested against this same table
 * (guard.test.ts, gate-verdict.test.ts, drift.test.ts).
 */
export const NATIVE_CHANGE_TABLE: ReadonlyArray<{
  name: string;
  candidate: NativeChangeCandidate;
  baseline: NativeChangeBaseline | null;
  changed: boolean;
  reason?: string;
}> = [
  {
    name: 'production, same fingerprint',
    candidate: prod({ fingerprint: 'old' }),
    baseline: stored('old'),
    changed: false,
    reason: 'same-fingerprint',
  },
  { name: 'production, different fingerprint', candidate: prod(), baseline: stored('old'), changed: true },
  {
    name: 'development channel is never guarded',
    candidate: prod({ channel: 'development' }),
    baseline: stored('old'),
    changed: false,
    reason: 'not-production',
  },
  { name: 'no earlier release', candidate: prod(), baseline: null, changed: false, reason: 'no-earlier-release' },
  {
    name: 'earlier release stored no fingerprint',
    candidate: prod(),
    baseline: stored(null),
    changed: false,
    reason: 'no-stored-fingerprint',
  },
  {
    name: 'runtimeVersion ending in -pre',
    candidate: prod({ runtimeVersion: '1.2.0-pre' }),
    baseline: stored('old'),
    changed: false,
    reason: 'prerelease',
  },
  {
    name: '-pre only counts at the end',
    candidate: prod({ runtimeVersion: '1.2.0-pre(3)' }),
    baseline: stored('old'),
    changed: true,
  },
  {
    name: '-PRE is not pre-release',
    candidate: prod({ runtimeVersion: '1.2.0-PRE' }),
    baseline: stored('old'),
    changed: true,
  },
  {
    name: 'no fingerprint given',
    candidate: prod({ fingerprint: undefined }),
    baseline: stored('old'),
    changed: false,
    reason: 'no-fingerprint',
  },
  {
    name: 'null fingerprint given',
    candidate: prod({ fingerprint: null }),
    baseline: stored('old'),
    changed: false,
    reason: 'no-fingerprint',
  },
  {
    name: 'no fingerprint and no earlier release',
    candidate: prod({ fingerprint: null }),
    baseline: null,
    changed: false,
    reason: 'no-fingerprint',
  },
  {
    name: 'fingerprints compare exactly (case)',
    candidate: prod({ fingerprint: 'OLD' }),
    baseline: stored('old'),
    changed: true,
  },
  { name: 'empty stored fingerprint is a fingerprint', candidate: prod(), baseline: stored(''), changed: true },
];
