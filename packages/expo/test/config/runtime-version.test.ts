import { describe, expect, it } from 'vitest';
import { runtimeVersionFor, runtimeVersionsFor } from '../../config/index.mjs';

describe('runtimeVersionFor (spec "runtimeVersion rules")', () => {
  it.each([
    // track, platform, input, expected
    ['production', 'ios', { appVersion: '2.3.0', buildNumber: 57, isPrerelease: false }, '2.3.0(57)'],
    ['production', 'ios', { appVersion: '2.3.0', buildNumber: '57', isPrerelease: false }, '2.3.0(57)'],
    [
      'production',
      'ios (dotted build number)',
      { appVersion: '1.0.0', buildNumber: '1.0.12', isPrerelease: false },
      '1.0.0(1.0.12)',
    ],
    ['production', 'android', { appVersion: '2.3.0', buildNumber: 10230, isPrerelease: false }, '2.3.0(10230)'],
    ['pre-release', 'ios', { appVersion: '2.4.0', buildNumber: 58, isPrerelease: true }, '2.4.0-pre'],
    ['pre-release', 'android', { appVersion: '2.4.0', buildNumber: 10240, isPrerelease: true }, '2.4.0-pre'],
    ['pre-release', 'any (no build number)', { appVersion: '2.4.0', isPrerelease: true }, '2.4.0-pre'],
  ])('%s track on %s', (_track, _platform, input, expected) => {
    expect(runtimeVersionFor(input)).toBe(expected);
  });

  it.each([
    ['missing appVersion', { buildNumber: 1, isPrerelease: false }, /appVersion/],
    ['empty appVersion', { appVersion: '', buildNumber: 1, isPrerelease: false }, /appVersion/],
    ['appVersion with parentheses', { appVersion: '2.3.0(1)', buildNumber: 1, isPrerelease: false }, /appVersion/],
    [
      'appVersion already ending in -pre',
      { appVersion: '2.3.0-pre', buildNumber: 1, isPrerelease: false },
      /appVersion/,
    ],
    ['appVersion with a space', { appVersion: '2.3 .0', buildNumber: 1, isPrerelease: false }, /appVersion/],
    ['missing build number on a store build', { appVersion: '2.3.0', isPrerelease: false }, /buildNumber/],
    ['zero build number', { appVersion: '2.3.0', buildNumber: 0, isPrerelease: false }, /buildNumber/],
    ['negative build number', { appVersion: '2.3.0', buildNumber: -3, isPrerelease: false }, /buildNumber/],
    ['fractional build number', { appVersion: '2.3.0', buildNumber: 1.5, isPrerelease: false }, /buildNumber/],
    ['build number text', { appVersion: '2.3.0', buildNumber: 'abc', isPrerelease: false }, /buildNumber/],
    ['isPrerelease as a string', { appVersion: '2.3.0', buildNumber: 1, isPrerelease: 'false' }, /isPrerelease/],
    ['isPrerelease missing', { appVersion: '2.3.0', buildNumber: 1 }, /isPrerelease/],
  ])('rejects %s', (_case, input, message) => {
    expect(() => runtimeVersionFor(input as never)).toThrow(message);
  });

  it('rejects a missing input object with a TypeError', () => {
    expect(() => runtimeVersionFor(undefined as never)).toThrow(TypeError);
  });
});

describe('runtimeVersionsFor (one release control file, both platforms)', () => {
  it('uses each platform’s own build number on store builds', () => {
    expect(
      runtimeVersionsFor({ appVersion: '2.3.0', iosBuildNumber: 57, androidVersionCode: 10230, isPrerelease: false }),
    ).toEqual({ ios: '2.3.0(57)', android: '2.3.0(10230)' });
  });

  it('gives both platforms the same -pre track on pre-releases', () => {
    expect(
      runtimeVersionsFor({ appVersion: '2.4.0', iosBuildNumber: 58, androidVersionCode: 10240, isPrerelease: true }),
    ).toEqual({ ios: '2.4.0-pre', android: '2.4.0-pre' });
  });

  it('names the faulty value', () => {
    expect(() =>
      runtimeVersionsFor({ appVersion: '2.3.0', iosBuildNumber: 57, androidVersionCode: null, isPrerelease: false }),
    ).toThrow(/buildNumber/);
  });
});
