import { describe, expect, it } from 'vitest';
import { driftVerdict } from '../packages/cli/src/bump/drift.js';
import { gateVerdict } from '../packages/cli/src/gate/gate-verdict.js';
import { NATIVE_CHANGE_TABLE } from '../packages/contracts/test/native-change-table.js';
import { evaluateGuard } from '../packages/server/src/ota/guard.js';

// The gate promises to block exactly when the server's guard would answer 409, and the bump to bump
// exactly then: all three read the shared rule, and this holds them to it row by row.
describe('guard, gate and drift agree', () => {
  const judgeable = NATIVE_CHANGE_TABLE.filter(
    (row) => row.candidate.channel === 'production' && typeof row.candidate.fingerprint === 'string',
  );
  it.each(judgeable)('$name', ({ candidate, baseline }) => {
    const inspection = {
      ok: true as const,
      runtimeVersion: candidate.runtimeVersion,
      fingerprint: candidate.fingerprint as string,
    };
    const lookup = baseline
      ? { kind: 'found' as const, fingerprint: baseline.fingerprint, releaseId: 'r-1' }
      : { kind: 'no-release' as const };
    const guardBlocks = evaluateGuard(candidate, baseline ? { id: 'r-1', ...baseline } : undefined).kind === 'block';
    expect(gateVerdict({ platform: 'ios', affected: true, inspection, baseline: lookup }).outcome === 'block').toBe(
      guardBlocks,
    );
    expect(driftVerdict('ios', inspection, lookup).drift).toBe(guardBlocks);
  });
});
