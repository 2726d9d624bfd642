import { describe, expect, it } from 'vitest';
import { shouldHalt } from './halt-rule.js';

const rule = { failureRate: 0.02, minDevices: 100 };

describe('shouldHalt', () => {
  it.each([
    ['no device yet', 0, 0, false],
    ['below the minimum device count, even all failed', 99, 99, false],
    ['minimum reached, below the rate', 100, 1, false],
    ['minimum reached, at the rate', 100, 2, true],
    ['minimum reached, above the rate', 100, 3, true],
    ['many devices, just below', 1000, 19, false],
    ['many devices, at the rate', 1000, 20, true],
  ] as const)('%s (%i received, %i failed) → %s', (_case, received, failed, expected) => {
    expect(shouldHalt(rule, { received, failed })).toBe(expected);
  });
});
