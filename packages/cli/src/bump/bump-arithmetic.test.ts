import { describe, expect, it } from 'vitest';
import {
  androidCode,
  BUMP_KINDS,
  BumpError,
  nativeTagName,
  nextAppVersion,
  nextBuildNumbers,
  nextIosBuildNumber,
  parseNativeTag,
} from './bump-arithmetic.js';

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

/** The BumpError `run` throws, so its name and message can be checked. */
function bumpErrorOf(run: () => unknown): BumpError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BumpError);
    return error as BumpError;
  }
  throw new Error('expected a BumpError');
}

describe('ANDROID_VERSION_CODE', () => {
  it.each([
    [1, 1],
    [41, 41],
    ['1', 1],
    ['41', 41],
    ['007', 7],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  ])('%j is the code %i', (value, code) => {
    expect(androidCode(value)).toBe(code);
  });

  it.each([
    0,
    '0',
    -1,
    '-1',
    1.5,
    '1.5',
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.MAX_SAFE_INTEGER + 1,
    '9007199254740993',
    '',
    ' 12',
    '12 ',
    '+5',
    '1e3',
    '0x1F',
    '4x',
    'x4',
  ])('%j is refused', (value) => {
    const error = bumpErrorOf(() => androidCode(value));
    expect(error.name).toBe('BumpError');
    expect(error.message).toBe(`ANDROID_VERSION_CODE must be a positive integer, got ${JSON.stringify(value)}`);
  });

  it('a refused current value stops the bump, whatever the tags', () => {
    expect(() => nextBuildNumbers({ iosBuildNumber: '1', androidVersionCode: 0 }, tags('native-v1.0.0+40'))).toThrow(
      /ANDROID_VERSION_CODE/,
    );
  });
});

describe('IOS_BUILD_NUMBER', () => {
  it.each([
    [0, 1],
    [56, 57],
    ['0', '1'],
    ['57', '58'],
    ['1.9', '1.10'],
    ['1.0.57', '1.0.58'],
  ])('%j → %j', (value, next) => {
    expect(nextIosBuildNumber(value)).toBe(next);
  });

  it.each([-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])('the number %d is refused', (value) => {
    const error = bumpErrorOf(() => nextIosBuildNumber(value));
    expect(error.message).toBe('IOS_BUILD_NUMBER must be a positive integer');
  });

  it.each(['', 'abc', '1.', '.1', '1..2', '1.2.3.4', ' 57', '57 ', '-1', '1e3'])('%j is refused', (value) => {
    const error = bumpErrorOf(() => nextIosBuildNumber(value));
    expect(error.message).toBe(
      `IOS_BUILD_NUMBER must be digits, optionally dotted ("57" or "1.0.57"), got ${JSON.stringify(value)}`,
    );
  });
});

describe('native tags', () => {
  it.each([
    ['native-v1.4.0+41', { appVersion: '1.4.0', androidVersionCode: 41 }],
    ['native-v2.0.0-rc.1+7', { appVersion: '2.0.0-rc.1', androidVersionCode: 7 }],
  ])('%s is a store tag', (tag, parsed) => {
    expect(parseNativeTag(tag)).toMatchObject(parsed);
  });

  it.each([
    'v1.4.0',
    'native-v1.4.0',
    'native-v1.4.0+',
    'native-v1.4.0+abc',
    'other-native-v1+2',
    'native-v1.4.0+41x',
    'native-v1.4.0+41 ',
    'native-v1.4.0+41-rc',
    'native-v+41',
    'native-v1.4.0+99999999999999999999',
  ])('%s is not a store tag', (tag) => {
    expect(parseNativeTag(tag)).toBeUndefined();
  });

  it('reads the whole tag back', () => {
    expect(parseNativeTag('native-v1.4.0+41')).toEqual({
      tag: 'native-v1.4.0+41',
      appVersion: '1.4.0',
      androidVersionCode: 41,
    });
  });

  it.each([
    ['1.4.0', 41, 'native-v1.4.0+41'],
    ['2.0.0-rc.1', '7', 'native-v2.0.0-rc.1+7'],
  ] as const)('the tag of %s and %s is %s, and reads back', (appVersion, code, tag) => {
    expect(nativeTagName(appVersion, code)).toBe(tag);
    expect(parseNativeTag(tag)).toMatchObject({ appVersion, androidVersionCode: Number(code) });
  });
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

  it('raises by every kind but build', () => {
    expect(BUMP_KINDS).toEqual(['build', 'patch', 'minor', 'major']);
    for (const kind of BUMP_KINDS) {
      if (kind === 'build') continue;
      expect(nextAppVersion('1.4.3', kind)).not.toBe('1.4.3');
    }
  });

  it('refuses a kind it cannot raise by (an unchecked caller)', () => {
    const error = bumpErrorOf(() => nextAppVersion('1.4.3', 'build' as never));
    expect(error.message).toBe('cannot raise 1.4.3 by build');
  });
});
