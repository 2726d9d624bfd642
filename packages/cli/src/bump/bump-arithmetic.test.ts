import { describe, expect, it } from 'vitest';
import { BumpError, nextAppVersion, nextBuildNumbers, nextIosBuildNumber, parseNativeTag } from './bump-arithmetic.js';

const tags = (...names: string[]) => names.map((name) => parseNativeTag(name)!).filter(Boolean);

describe('bump build: the build numbers', () => {
  it.each([
    {
      row: 'no tags yet: both + 1',
      current: { iosBuildNumber: '17', androidVersionCode: 41 },
      tags: [],
      next: { iosBuildNumber: '18', androidVersionCode: 42 },
    },
    {
      row: 'tags of several versions, highest code above the current value',
      current: { iosBuildNumber: '17', androidVersionCode: 41 },
      tags: tags('native-v1.2.0+30', 'native-v1.3.0+44', 'native-v1.4.0+43', 'native-v1.10.0+39'),
      next: { iosBuildNumber: '18', androidVersionCode: 45 },
    },
    {
      row: 'tags all below the current value: never goes back',
      current: { iosBuildNumber: 17, androidVersionCode: 60 },
      tags: tags('native-v1.2.0+30', 'native-v1.3.0+44'),
      next: { iosBuildNumber: 18, androidVersionCode: 61 },
    },
    {
      row: 'a new marketing version does not reset the codes',
      current: { iosBuildNumber: '3', androidVersionCode: '50' },
      tags: tags('native-v2.0.0+12', 'native-v1.9.0+50'),
      next: { iosBuildNumber: '4', androidVersionCode: 51 },
    },
    {
      row: 'a dotted iOS build number raises its last part',
      current: { iosBuildNumber: '1.0.57', androidVersionCode: 1 },
      tags: [],
      next: { iosBuildNumber: '1.0.58', androidVersionCode: 2 },
    },
  ])('$row', ({ current, tags, next }) => {
    expect(nextBuildNumbers(current, tags)).toEqual(next);
  });

  it('never lowers a value, for any mix of tags', () => {
    for (let current = 1; current < 60; current += 7) {
      const codes = [3, 25, 40, 59];
      const next = nextBuildNumbers(
        { iosBuildNumber: current, androidVersionCode: current },
        tags(...codes.map((code) => `native-v1.0.0+${code}`)),
      );
      expect(next.androidVersionCode).toBe(Math.max(current, ...codes) + 1);
      expect(next.iosBuildNumber).toBe(current + 1);
    }
  });

  it('rejects values that are not build numbers', () => {
    expect(() => nextBuildNumbers({ iosBuildNumber: 'abc', androidVersionCode: 1 }, [])).toThrow(BumpError);
    expect(() => nextBuildNumbers({ iosBuildNumber: '1', androidVersionCode: '4x' }, [])).toThrow(BumpError);
    expect(() => nextIosBuildNumber('1.2.3.4')).toThrow(BumpError);
  });
});

describe('native tags', () => {
  it.each([
    ['native-v1.4.0+41', { appVersion: '1.4.0', androidVersionCode: 41 }],
    ['native-v2.0.0-rc.1+7', { appVersion: '2.0.0-rc.1', androidVersionCode: 7 }],
  ])('%s is a store tag', (tag, parsed) => {
    expect(parseNativeTag(tag)).toMatchObject(parsed);
  });

  it.each(['v1.4.0', 'native-v1.4.0', 'native-v1.4.0+', 'native-v1.4.0+abc', 'other-native-v1+2'])(
    '%s is not a store tag',
    (tag) => {
      expect(parseNativeTag(tag)).toBeUndefined();
    },
  );
});

describe('bump patch | minor | major: APP_VERSION', () => {
  it.each([
    ['1.4.0', 'patch', '1.4.1'],
    ['1.4.9', 'patch', '1.4.10'],
    ['1.4.3', 'minor', '1.5.0'],
    ['1.4.3', 'major', '2.0.0'],
    ['0.9.12', 'major', '1.0.0'],
    ['1.4.0-rc.2', 'patch', '1.4.1'],
  ] as const)('%s + %s = %s', (version, kind, next) => {
    expect(nextAppVersion(version, kind)).toBe(next);
  });

  it('refuses a version that is not semantic', () => {
    expect(() => nextAppVersion('1.4', 'patch')).toThrow(/semantic version/);
  });
});
