import { describe, expect, it } from 'vitest';
import { type RolloutRisk, rolloutRisk, suggestedShare } from './rollout-risk.js';

const rule = { failureRate: 0.5, minDevices: 2 };

describe('rolloutRisk', () => {
  it.each<[string, { state: 'running' | 'halted'; haltRule: typeof rule | null }, number, number, RolloutRisk['kind']]>(
    [
      ['no device yet', { state: 'running', haltRule: rule }, 0, 0, 'healthy'],
      ['devices, no failure', { state: 'running', haltRule: rule }, 40, 0, 'healthy'],
      ['one failure, below the rule', { state: 'running', haltRule: rule }, 40, 1, 'failures'],
      ['failures, no rule', { state: 'running', haltRule: null }, 11, 11, 'failures'],
      ['at the rule, before the minimum devices', { state: 'running', haltRule: rule }, 1, 1, 'failures'],
      ['at the rule once the minimum received it', { state: 'running', haltRule: rule }, 2, 1, 'past-halt-rule'],
      ['past the rule', { state: 'running', haltRule: rule }, 11, 11, 'past-halt-rule'],
      ['halted', { state: 'halted', haltRule: rule }, 2, 2, 'past-halt-rule'],
      ['halted, whatever the figures now', { state: 'halted', haltRule: null }, 0, 0, 'past-halt-rule'],
    ],
  )('%s → %s', (_case, rollout, received, failed, kind) => {
    expect(rolloutRisk(rollout, { received, failed }).kind).toBe(kind);
  });

  it('carries the figures and the rule it warns about', () => {
    expect(rolloutRisk({ state: 'running', haltRule: rule }, { received: 11, failed: 11 })).toEqual({
      kind: 'past-halt-rule',
      received: 11,
      failed: 11,
      rule,
    });
  });
});

describe('suggestedShare', () => {
  it.each<[number, RolloutRisk, string]>([
    [20, { kind: 'healthy' }, '40'],
    [50, { kind: 'healthy' }, '100'],
    [80, { kind: 'healthy' }, '100'],
    [0, { kind: 'healthy' }, '10'],
    [50, { kind: 'failures', failed: 1, received: 40 }, ''],
    [50, { kind: 'past-halt-rule', failed: 11, received: 11, rule: null }, ''],
  ])('from %i %% (%o) suggests "%s"', (percent, risk, expected) => {
    expect(suggestedShare(percent, risk)).toBe(expected);
  });
});
