import { describe, expect, it } from 'vitest';
import { NATIVE_CHANGE_TABLE } from '../../../contracts/test/native-change-table.js';
import { type BaselineLookup, type GateRule, gateVerdict, type Inspection } from './gate-verdict.js';

const head: Inspection = { ok: true, runtimeVersion: '1.4.0(17)', fingerprint: 'fp-head' };
const found = (fingerprint: string | null): BaselineLookup => ({ kind: 'found', fingerprint, releaseId: 'r-1' });

interface Row {
  row: string;
  affected: boolean;
  inspection?: Inspection;
  baseline?: BaselineLookup;
  outcome: 'pass' | 'block';
  level: 'none' | 'notice' | 'warning' | 'error';
  rule: GateRule;
}

/** Spec, "Pre-merge gate" rules 1–4, one row per case. */
const ROWS: Row[] = [
  { row: '1. native not affected', affected: false, outcome: 'pass', level: 'none', rule: 'not-affected' },
  {
    row: '3. same runtimeVersion, same fingerprint',
    affected: true,
    inspection: head,
    baseline: found('fp-head'),
    outcome: 'pass',
    level: 'none',
    rule: 'same-fingerprint',
  },
  {
    row: '3. same runtimeVersion, different fingerprint',
    affected: true,
    inspection: head,
    baseline: found('fp-base'),
    outcome: 'block',
    level: 'error',
    rule: 'native-changed',
  },
  {
    row: '3. new runtimeVersion (no production release of the track)',
    affected: true,
    inspection: head,
    baseline: { kind: 'no-release' },
    outcome: 'pass',
    level: 'notice',
    rule: 'new-track',
  },
  {
    row: '3. no baseline (the newest release stored no fingerprint)',
    affected: true,
    inspection: head,
    baseline: found(null),
    outcome: 'pass',
    level: 'notice',
    rule: 'no-baseline',
  },
  {
    row: '4. the baseline endpoint answers 404',
    affected: true,
    inspection: head,
    baseline: { kind: 'endpoint-not-found', message: 'GET /api/updates/baseline-fingerprint answered 404' },
    outcome: 'pass',
    level: 'warning',
    rule: 'endpoint-not-found',
  },
  {
    row: '4. network failure',
    affected: true,
    inspection: head,
    baseline: { kind: 'unreachable', message: 'ECONNREFUSED' },
    outcome: 'pass',
    level: 'warning',
    rule: 'unreachable',
  },
  {
    row: '4. the server fails (5xx, garbled body)',
    affected: true,
    inspection: head,
    baseline: { kind: 'failed', message: '503' },
    outcome: 'pass',
    level: 'warning',
    rule: 'baseline-error',
  },
  {
    row: '4. compute error',
    affected: true,
    inspection: { ok: false, error: 'the project is not installed' },
    outcome: 'pass',
    level: 'warning',
    rule: 'compute-error',
  },
  {
    row: '4. no server configured',
    affected: true,
    inspection: head,
    baseline: { kind: 'no-server' },
    outcome: 'pass',
    level: 'warning',
    rule: 'no-server',
  },
  {
    row: 'pre-release track (the guard never compares it)',
    affected: true,
    inspection: { ok: true, runtimeVersion: '1.4.0-pre', fingerprint: 'fp-head' },
    baseline: found('fp-base'),
    outcome: 'pass',
    level: 'notice',
    rule: 'prerelease',
  },
];

describe('gate verdict', () => {
  it.each(ROWS)('$row → $outcome ($level)', ({ affected, inspection, baseline, outcome, level, rule }) => {
    const verdict = gateVerdict({ platform: 'ios', affected, inspection, baseline });
    expect(verdict).toMatchObject({ platform: 'ios', outcome, level, rule });
    expect(verdict.message).toMatch(/^ios: /);
  });

  it('a block names both fingerprints, the baseline release and the fix', () => {
    const verdict = gateVerdict({ platform: 'android', affected: true, inspection: head, baseline: found('fp-base') });
    expect(verdict.message).toContain('fp-base');
    expect(verdict.message).toContain('fp-head');
    expect(verdict.message).toContain('r-1');
    expect(verdict.message).toMatch(/409/);
    expect(verdict.message).toMatch(/ferry bump build/);
    expect(verdict).toMatchObject({ runtimeVersion: '1.4.0(17)', fingerprint: 'fp-head', baseline: 'fp-base' });
  });

  it('shortens long fingerprints to 12 characters in the block message, and keeps short ones whole', () => {
    const long = (fp: string): Inspection => ({ ok: true, runtimeVersion: '1.4.0(17)', fingerprint: fp });
    const head13 = 'abcdefghijklM';
    const base13 = 'nopqrstuvwxyZ';
    const blocked = gateVerdict({ platform: 'ios', affected: true, inspection: long(head13), baseline: found(base13) });
    expect(blocked.message).toContain('production baseline nopqrstuvwxy from release r-1, this commit abcdefghijkl)');
    expect(blocked).toMatchObject({ fingerprint: head13, baseline: base13 });
    const head12 = 'abcdefghijkl';
    const base12 = 'nopqrstuvwxy';
    const twelve = gateVerdict({ platform: 'ios', affected: true, inspection: long(head12), baseline: found(base12) });
    expect(twelve.message).toContain('production baseline nopqrstuvwxy from release r-1, this commit abcdefghijkl)');
    const short = gateVerdict({ platform: 'ios', affected: true, inspection: long('ab'), baseline: found('cd') });
    expect(short.message).toContain('production baseline cd from release r-1, this commit ab)');
    expect(short.message).toContain('so the change ships as a new store build on a new track');
  });

  it('a compute error names the cause, or "not computed" when there is no inspection', () => {
    const failed = gateVerdict({
      platform: 'ios',
      affected: true,
      inspection: { ok: false, error: 'the project is not installed' },
    });
    expect(failed.message).toBe(
      'ios: could not resolve runtimeVersion and fingerprint (the project is not installed); passing without a decision',
    );
    expect(failed).not.toHaveProperty('runtimeVersion');
    const missing = gateVerdict({ platform: 'android', affected: true });
    expect(missing).toMatchObject({ outcome: 'pass', level: 'warning', rule: 'compute-error' });
    expect(missing.message).toBe(
      'android: could not resolve runtimeVersion and fingerprint (not computed); passing without a decision',
    );
  });

  it('no baseline lookup at all is "no server"', () => {
    const verdict = gateVerdict({ platform: 'ios', affected: true, inspection: head });
    expect(verdict).toMatchObject({
      outcome: 'pass',
      level: 'warning',
      rule: 'no-server',
      runtimeVersion: '1.4.0(17)',
    });
    expect(verdict.message).toMatch(/--server or OTA_SERVER_URL/);
  });

  it('a new track is told to publish from the store build’s own commit', () => {
    const verdict = gateVerdict({
      platform: 'ios',
      affected: true,
      inspection: head,
      baseline: { kind: 'no-release' },
    });
    expect(verdict.message).toBe(
      'ios: no production release exists for 1.4.0(17): a new track. Its first production publish becomes the ' +
        'baseline, so publish it from the store build’s own commit',
    );
    expect(verdict).toMatchObject({ runtimeVersion: '1.4.0(17)', fingerprint: 'fp-head' });
    expect(verdict).not.toHaveProperty('baseline');
  });

  it('only a block ever blocks', () => {
    const blocks = ROWS.filter((row) => gateVerdict({ platform: 'ios', ...row }).outcome === 'block');
    expect(blocks.map((row) => row.rule)).toEqual(['native-changed']);
  });
});

describe("gateVerdict on the shared rule's table", () => {
  // Every production row with a fingerprint is a commit the gate can judge.
  const judgeable = NATIVE_CHANGE_TABLE.filter(
    (row) => row.candidate.channel === 'production' && typeof row.candidate.fingerprint === 'string',
  );
  it.each(judgeable)('$name → block $changed', ({ candidate, baseline, changed }) => {
    const verdict = gateVerdict({
      platform: 'ios',
      affected: true,
      inspection: { ok: true, runtimeVersion: candidate.runtimeVersion, fingerprint: candidate.fingerprint as string },
      baseline: baseline
        ? { kind: 'found', fingerprint: baseline.fingerprint, releaseId: 'r-1' }
        : { kind: 'no-release' },
    });
    expect(verdict.outcome).toBe(changed ? 'block' : 'pass');
  });
});
