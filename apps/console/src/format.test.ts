import {
  UPDATE_POLICY_BEHAVIOUR,
  UPDATE_POLICY_VALUES,
  UpdatePolicy,
  type UpdatePolicyName,
  updatePolicyName,
} from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { count, devices, localTime, updatePolicy, utcTime } from './format.js';
import { CATALOGUES, LOCALES } from './i18n/catalogue.js';
import { createI18n, translatorOf } from './i18n/console-i18n.js';

const en = translatorOf(createI18n('en'));
const ko = translatorOf(createI18n('ko'));

describe('a release’s update policy', () => {
  it.each(UPDATE_POLICY_VALUES)('%i reads as its contract name and, in English, the contracts’ meaning', (value) => {
    const name = updatePolicyName(value) as UpdatePolicyName;
    expect(name).toBeDefined();
    expect(updatePolicy(en, value)).toBe(`${name} (${value}): ${UPDATE_POLICY_BEHAVIOUR[name]}`);
    expect(updatePolicy(ko, value)).toBe(`${name} (${value}): ${CATALOGUES.ko.policy.meaning[name]}`);
  });

  it('has a meaning for exactly the contracts’ policies, in every language', () => {
    for (const catalogue of Object.values(CATALOGUES)) {
      expect(Object.keys(catalogue.policy.meaning).sort()).toEqual(Object.keys(UpdatePolicy).sort());
    }
  });

  // The console once showed 1 as "on next launch" and 3 as "immediately": the reverse of the spec.
  it('reads Immediate (1) as applied at once and Default (3) as applied at the next launch, in both languages', () => {
    expect(updatePolicy(en, UpdatePolicy.Immediate)).toMatch(/^Immediate \(1\): applied as soon as it is downloaded/);
    expect(updatePolicy(en, UpdatePolicy.Immediate)).not.toMatch(/launch/);
    expect(updatePolicy(en, UpdatePolicy.Notify)).toMatch(/^Notify \(2\): .*banner/);
    expect(updatePolicy(en, UpdatePolicy.Default)).toMatch(/^Default \(3\): .*next cold launch/);
    expect(updatePolicy(ko, UpdatePolicy.Immediate)).toMatch(/^Immediate \(1\): 내려받는 즉시/);
    expect(updatePolicy(ko, UpdatePolicy.Immediate)).not.toMatch(/다음에/);
    expect(updatePolicy(ko, UpdatePolicy.Notify)).toMatch(/^Notify \(2\): .*배너/);
    expect(updatePolicy(ko, UpdatePolicy.Default)).toMatch(/^Default \(3\): 다음에 앱을 새로 시작할 때/);
  });

  it('reads no policy as Default, as the app treats it, and names a value it does not know', () => {
    expect(updatePolicy(en, null)).toBe(`not set: ${UPDATE_POLICY_BEHAVIOUR.Default} (Default, 3)`);
    expect(updatePolicy(en, 7)).toBe('7 (not a policy this console knows)');
  });
});

describe('numbers and times', () => {
  it('writes the moment in UTC to the minute', () => {
    expect(utcTime('2026-11-28T14:05:59.123Z')).toBe('2026-11-28 14:05 UTC');
  });

  it('writes local times and counts in the language’s locale', () => {
    const at = '2026-11-28T14:05:00Z';
    expect(localTime(at, LOCALES.en)).toBe(
      new Date(at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }),
    );
    expect(count(1240, LOCALES.en)).toBe('1,240');
    expect(devices(en, 1, LOCALES.en)).toBe('1 device');
    expect(devices(en, 1240, LOCALES.en)).toBe('1,240 devices');
    expect(devices(ko, 1240, LOCALES.ko)).toBe('1,240대의 기기');
  });
});
