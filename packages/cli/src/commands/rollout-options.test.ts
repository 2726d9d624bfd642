import { describe, expect, it } from 'vitest';
import { parseFailureRate, parseMinDevices, parsePercent, rolloutRequest } from './rollout-options.js';

describe('rollout options', () => {
  it.each([
    ['10', 10],
    ['1', 1],
    ['100', 100],
    ['25%', 25],
  ])('--rollout %s → %i', (raw, expected) => expect(parsePercent(raw)).toBe(expected));

  it.each(['0', '101', '2.5', 'ten', '', '-5'])('--rollout %s is refused', (raw) => {
    expect(() => parsePercent(raw)).toThrow(/whole percent/);
  });

  it.each([
    ['2%', 0.02],
    ['0.5%', 0.005],
    ['100%', 1],
    ['0.02', 0.02],
    ['1', 1],
  ])('--halt-on-failure-rate %s → %f', (raw, expected) => expect(parseFailureRate(raw)).toBeCloseTo(expected, 10));

  it.each(['2', '0', '0%', '150%', '%', 'x%', '', '-1%'])('--halt-on-failure-rate %s is refused', (raw) => {
    expect(() => parseFailureRate(raw)).toThrow(/failure rate/);
  });

  it.each(['0', '1.5', 'many', '-3'])('--halt-min-devices %s is refused', (raw) => {
    expect(() => parseMinDevices(raw)).toThrow(/whole number/);
  });

  it('builds the rollout with its halt rule, the minimum defaulting to 100 devices', () => {
    expect(rolloutRequest({})).toBeUndefined();
    expect(rolloutRequest({ rollout: 10 })).toEqual({ percent: 10 });
    expect(rolloutRequest({ rollout: 10, haltOnFailureRate: 0.02 })).toEqual({
      percent: 10,
      haltRule: { failureRate: 0.02, minDevices: 100 },
    });
    expect(rolloutRequest({ rollout: 10, haltOnFailureRate: 0.02, haltMinDevices: 500 })).toEqual({
      percent: 10,
      haltRule: { failureRate: 0.02, minDevices: 500 },
    });
  });

  it('refuses a halt rule without a rollout, and a minimum without a rate', () => {
    expect(() => rolloutRequest({ haltOnFailureRate: 0.02 })).toThrow(/need --rollout/);
    expect(() => rolloutRequest({ rollout: 10, haltMinDevices: 50 })).toThrow(/needs --halt-on-failure-rate/);
  });
});
