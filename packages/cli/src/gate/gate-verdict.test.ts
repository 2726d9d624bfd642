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
  allowUnreachable?: boolean;
  outcome: 'pass' | 'block';
  level: 'none' | 'notice' | 'warning' | 'error';
  rule: GateRule;
}

/**
 * Spec, "Pre-merge gate" rules 1–3, one row per case; rule 4 ("no decision possible: warn and
 * pass") replaced by failing safe (docs/decisions.md): pass only with --allow-unreachable.
 */
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
    row: 'the baseline endpoint answers 404 without naming the track: blocks',
    affected: true,
    inspection: head,
    baseline: { kind: 'endpoint-not-found', message: 'GET /api/updates/baseline-fingerprint answered 404' },
    outcome: 'block',
    level: 'error',
    rule: 'endpoint-not-found',
  },
  {
    row: 'the baseline endpoint answers 404 without naming the track, --allow-unreachable: warns and passes',
    affected: true,
    inspection: head,
    baseline: { kind: 'endpoint-not-found', message: 'GET /api/updates/baseline-fingerprint answered 404' },
    allowUnreachable: true,
    outcome: 'pass',
    level: 'warning',
    rule: 'endpoint-not-found',
  },
  {
    row: 'network failure: blocks',
    affected: true,
    inspection: head,
    baseline: { kind: 'unreachable', message: 'ECONNREFUSED' },
    outcome: 'block',
    level: 'error',
    rule: 'unreachable',
  },
  {
    row: 'network failure, --allow-unreachable: warns and passes',
    affected: true,
    inspection: head,
    baseline: { kind: 'unreachable', message: 'ECONNREFUSED' },
    allowUnreachable: true,
    outcome: 'pass',
    level: 'warning',
    rule: 'unreachable',
  },
  {
    row: 'the server fails (5xx after retries, 401, garbled body): blocks',
    affected: true,
    inspection: head,
    baseline: { kind: 'failed', message: '503' },
    outcome: 'block',
    level: 'error',
    rule: 'baseline-error',
  },
  {
    row: 'the server fails (5xx after retries, 401, garbled body), --allow-unreachable: warns and passes',
    affected: true,
    inspection: head,
    baseline: { kind: 'failed', message: '503' },
    allowUnreachable: true,
    outcome: 'pass',
    level: 'warning',
    rule: 'baseline-error',
  },
  {
    row: 'no server configured: blocks',
    affected: true,
    inspection: head,
    baseline: { kind: 'no-server' },
    outcome: 'block',
    level: 'error',
    rule: 'no-server',
  },
  {
    row: 'no server configured, --allow-unreachable: warns and passes',
    affected: true,
    inspection: head,
    baseline: { kind: 'no-server' },
    allowUnreachable: true,
    outcome: 'pass',
    level: 'warning',
    rule: 'no-server',
  },
  {
    row: 'compute error: blocks',
    affected: true,
    inspection: { ok: false, error: 'the project is not installed' },
    outcome: 'block',
    level: 'error',
    rule: 'compute-error',
  },
  {
    row: 'compute error, --allow-unreachable: still blocks (the publish would fail the same way)',
    affected: true,
    inspection: { ok: false, error: 'the project is not installed' },
    allowUnreachable: true,
    outcome: 'block',
    level: 'error',
    rule: 'compute-error',
  },
  {
    row: 'a new track, --allow-unreachable: passes with its notice as without the flag',
    affected: true,
    inspection: head,
    baseline: { kind: 'no-release' },
    allowUnreachable: true,
    outcome: 'pass',
    level: 'notice',
    rule: 'new-track',
  },
  {
    row: 'a changed fingerprint, --allow-unreachable: still blocks',
    affected: true,
    inspection: head,
    baseline: found('fp-base'),
    allowUnreachable: true,
    outcome: 'block',
    level: 'error',
    rule: 'native-changed',
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
  it.each(ROWS)(
    '$row → $outcome ($level)',
    ({ affected, inspection, baseline, allowUnreachable, outcome, level, rule }) => {
      const verdict = gateVerdict({ platform: 'ios', affected, inspection, baseline, allowUnreachable });
      expect(verdict).toMatchObject({ platform: 'ios', outcome, level, rule });
      expect(verdict.message).toMatch(/^ios: /);
    },
  );

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

  it('a compute error names the cause, or "not computed" when there is no inspection, and blocks', () => {
    const failed = gateVerdict({
      platform: 'ios',
      affected: true,
      inspection: { ok: false, error: 'the project is not installed' },
    });
    expect(failed.message).toMatch(
      /^ios: could not resolve runtimeVersion and fingerprint \(the project is not installed\)\. The gate cannot decide, so it blocks/,
    );
    expect(failed.message).toMatch(/npm ci/);
    expect(failed).not.toHaveProperty('runtimeVersion');
    const missing = gateVerdict({ platform: 'android', affected: true });
    expect(missing).toMatchObject({ outcome: 'block', level: 'error', rule: 'compute-error' });
    expect(missing.message).toMatch(/^android: could not resolve runtimeVersion and fingerprint \(not computed\)/);
  });

  it('a baseline it cannot read blocks and names the flag that lets it pass; with the flag it says it passed by it', () => {
    const unreachable: BaselineLookup = { kind: 'unreachable', message: 'cannot reach http://ota.example: ENOTFOUND' };
    const blocked = gateVerdict({ platform: 'ios', affected: true, inspection: head, baseline: unreachable });
    expect(blocked.message).toBe(
      'ios: the baseline could not be read: cannot reach http://ota.example: ENOTFOUND. Without the production ' +
        'baseline the gate cannot decide, so it blocks: check the server URL (--server or OTA_SERVER_URL) and that ' +
        'the server answers, or pass --allow-unreachable to let it pass with a warning',
    );
    expect(blocked).toMatchObject({ runtimeVersion: '1.4.0(17)', fingerprint: 'fp-head' });
    const allowed = gateVerdict({
      platform: 'ios',
      affected: true,
      inspection: head,
      baseline: unreachable,
      allowUnreachable: true,
    });
    expect(allowed.message).toBe(
      'ios: the baseline could not be read: cannot reach http://ota.example: ENOTFOUND; passing without a decision (--allow-unreachable)',
    );
  });

  it('no baseline lookup at all is "no server"', () => {
    const verdict = gateVerdict({ platform: 'ios', affected: true, inspection: head });
    expect(verdict).toMatchObject({
      outcome: 'block',
      level: 'error',
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

  it('passes without a decision only when allowed: every warning is a row with --allow-unreachable', () => {
    const warnings = ROWS.filter((row) => gateVerdict({ platform: 'ios', ...row }).level === 'warning');
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.every((row) => row.allowUnreachable === true)).toBe(true);
    // and every pass without the flag is a decision: the fingerprint compared, or a track the guard does not guard yet
    const passes = ROWS.filter(
      (row) => !row.allowUnreachable && gateVerdict({ platform: 'ios', ...row }).outcome === 'pass',
    );
    expect(passes.map((row) => row.rule).sort()).toEqual(
      ['new-track', 'no-baseline', 'not-affected', 'prerelease', 'same-fingerprint'].sort(),
    );
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
