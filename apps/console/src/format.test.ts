import { UPDATE_POLICY_BEHAVIOUR, UPDATE_POLICY_VALUES, UpdatePolicy, updatePolicyName } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { updatePolicy, utcTime } from './format.js';

describe('a release’s update policy', () => {
  it.each(UPDATE_POLICY_VALUES)('%i reads as its contract name and what the app does under it', (value) => {
    const name = updatePolicyName(value);
    expect(name).toBeDefined();
    expect(updatePolicy(value)).toBe(`${name} (${value}): ${UPDATE_POLICY_BEHAVIOUR[name!]}`);
  });

  // The console once showed 1 as "on next launch" and 3 as "immediately": the reverse of the spec.
  it('reads Immediate (1) as applied at once and Default (3) as applied at the next launch', () => {
    expect(updatePolicy(UpdatePolicy.Immediate)).toMatch(/^Immediate \(1\): applied as soon as it is downloaded/);
    expect(updatePolicy(UpdatePolicy.Immediate)).not.toMatch(/launch/);
    expect(updatePolicy(UpdatePolicy.Notify)).toMatch(/^Notify \(2\): .*banner/);
    expect(updatePolicy(UpdatePolicy.Default)).toMatch(/^Default \(3\): .*next cold launch/);
  });

  it('reads no policy as Default, as the app treats it, and names a value it does not know', () => {
    expect(updatePolicy(null)).toBe(`not set: ${UPDATE_POLICY_BEHAVIOUR.Default} (Default, 3)`);
    expect(updatePolicy(7)).toBe('7 (not a policy this console knows)');
  });
});

describe('utcTime', () => {
  it('writes the moment in UTC to the minute', () => {
    expect(utcTime('2026-11-28T14:05:59.123Z')).toBe('2026-11-28 14:05 UTC');
  });
});
