import { describe, expect, it } from 'vitest';
import { haltReason } from './halt-rule.js';

const rule = { failureRate: 0.02, minDevices: 100 };

describe('haltReason', () => {
  it('names the figures and the rule', () => {
    expect(haltReason(rule, { received: 200, failed: 5, failureRate: 0.025 })).toBe(
      '5 of 200 devices reported the update failed (2.5 %, rule: 2 % once 100 devices received it)',
    );
  });
});
