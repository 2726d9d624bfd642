import { describe, expect, it } from 'vitest';
import {
  assetHashOfKey,
  InvalidObjectKeyError,
  keySegmentOf,
  objectKeyToUrlPath,
  updateAssetKey,
  urlPathToObjectKey,
  validateObjectKey,
} from './object-key.js';

const HASH = 'JCcs2u_4LMX6zazNmCpvBbYMRQRwS7-UwZpjiGWYgLs';

describe('validateObjectKey', () => {
  it.each([
    'updates/production/1.0.0(1)/assets/abc',
    'certificates/user-1/5f0e.pdf',
    'a',
    'a b/c%25d',
    '.hidden/file',
    'a/..b/c..',
  ])('accepts %j', (key) => {
    expect(validateObjectKey(key)).toBe(key);
  });

  it.each([
    ['', 'empty'],
    ['/abs', 'relative'],
    ['a//b', 'empty segments'],
    ['a/', 'empty segments'],
    ['..', '".." segments'],
    ['a/../b', '".." segments'],
    ['./a', '".." segments'],
    ['a\\b', 'backslash'],
    ['a\u0000', 'printable ASCII'],
    ['a\tb', 'printable ASCII'],
    ['\u00e9', 'printable ASCII'],
    ['x'.repeat(1025), 'longer than'],
  ])('rejects %j (%s)', (key, reason) => {
    expect(() => validateObjectKey(key)).toThrow(InvalidObjectKeyError);
    expect(() => validateObjectKey(key)).toThrow(reason);
  });
});

describe('URL paths', () => {
  it.each([
    ['updates/production/1.0.0(1)/assets/x', 'updates/production/1.0.0(1)/assets/x'],
    ['a b/100%/q?#', 'a%20b/100%25/q%3F%23'],
    ['updates/p/1.0%2F2/assets/x', 'updates/p/1.0%252F2/assets/x'],
  ])('%j ↔ %j', (key, urlPath) => {
    expect(objectKeyToUrlPath(key)).toBe(urlPath);
    expect(urlPathToObjectKey(urlPath)).toBe(key);
  });

  it.each(['..%2Fx', 'a%2fb', '%2e%2e/x', 'a/%2E/b', '%5C..', '%', '%zz', '', 'a//b', '%00'])(
    'refuses the raw path %j',
    (raw) => {
      expect(() => urlPathToObjectKey(raw)).toThrow(InvalidObjectKeyError);
    },
  );
});

describe('keySegmentOf', () => {
  it.each([
    ['1.2.0(57)', '1.2.0(57)'],
    ['1.2.0-pre', '1.2.0-pre'],
    ['1.0/2', '1.0%2F2'],
    ['..', '%2E%2E'],
    ['.', '%2E'],
    ['a b', 'a%20b'],
    ['100%', '100%25'],
    ['back\\slash', 'back%5Cslash'],
  ])('%j → %j', (text, segment) => {
    expect(keySegmentOf(text)).toBe(segment);
    expect(decodeURIComponent(segment)).toBe(text);
  });
});

describe('update asset keys', () => {
  it('follow updates/<channel>/<runtimeVersion>/assets/<hash>', () => {
    expect(updateAssetKey('default', 'production', '1.2.0(57)', HASH)).toBe(
      `updates/production/1.2.0(57)/assets/${HASH}`,
    );
  });

  it('stay four segments deep whatever the runtimeVersion', () => {
    for (const rv of ['../../etc', 'a/b/c', '..', '/abs', 'x\\y']) {
      const key = updateAssetKey('default', 'production', rv, HASH);
      expect(key.split('/')).toHaveLength(5);
      expect(assetHashOfKey(key)).toBe(HASH);
    }
  });

  it('give their hash back, and nothing for other keys', () => {
    expect(assetHashOfKey(`updates/production/1/assets/${HASH}`)).toBe(HASH);
    expect(assetHashOfKey(`updates/production/1/assets/${HASH}/x`)).toBeUndefined();
    expect(assetHashOfKey('certificates/u/x.pdf')).toBeUndefined();
  });
});
