import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ASSET_KEY_MAX_BYTES, conflictingAssetKeys, isSafeAssetFileName, utf8Length } from './client-asset-rules.js';
import { Release, ReleasePayload, ReleasePlan } from './release.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const HASH = sha256('logo');
const OTHER_HASH = sha256('icon');
const URL_OK = 'https://cdn.example.test/objects/updates/production/1.0.0(1)/assets/abc';
const TRACK = { channel: 'production', platform: 'ios', runtimeVersion: '1.0.0(1)' } as const;
const LAUNCH = { url: 'https://cdn.example.test/bundle', hash: sha256('bundle'), key: md5('bundle') };

type Field = 'key' | 'fileExtension' | 'hash' | 'url' | 'contentType';
/**
 * [field, value, accepted]: one asset (assets.0) with that field set, the rest valid. The same rule
 * holds on the launch asset; both are tried below.
 */
const ROWS: Array<[Field, string, boolean]> = [
  // key: stored on the device as key + fileExtension (expo-updates isSafeFilename)
  ['key', md5('logo'), true], // Metro's key: md5 hex
  ['key', 'logo', true],
  ['key', 'a..b', true], // only "." and ".." themselves are path components
  ['key', '.hidden', true],
  ['key', 'ロゴ', true],
  ['key', 'x'.repeat(ASSET_KEY_MAX_BYTES), true],
  ['key', 'assets/logo', false],
  ['key', '/logo', false],
  ['key', 'a\\b', false],
  ['key', '..', false],
  ['key', '.', false],
  ['key', '', false],
  ['key', 'a\u0000b', false],
  ['key', 'x'.repeat(ASSET_KEY_MAX_BYTES + 1), false],
  ['key', 'ロ'.repeat(ASSET_KEY_MAX_BYTES / 3 + 1), false], // 3 bytes each in UTF-8
  // fileExtension
  ['fileExtension', '.png', true],
  ['fileExtension', `.${'a'.repeat(32)}`, true],
  ['fileExtension', 'png', false],
  ['fileExtension', '.', false],
  ['fileExtension', './png', false],
  ['fileExtension', '.p/ng', false],
  ['fileExtension', '.p\\ng', false],
  ['fileExtension', `.${'a'.repeat(33)}`, false],
  // hash: compared as a string with the client's own encoding of the file's SHA-256
  ['hash', HASH, true],
  ['hash', `${'A'.repeat(42)}w`, true],
  ['hash', `${'A'.repeat(42)}B`, false], // no SHA-256 encodes to this last character
  ['hash', `${HASH}=`, false],
  ['hash', HASH.slice(0, 42), false],
  ['hash', Buffer.from(createHash('sha256').update('x').digest()).toString('base64').slice(0, 43), false],
  // url: iOS parses it as an RFC 3986 URI
  ['url', URL_OK, true],
  ['url', 'https://cdn.example.test/a%20b.png?v=1&x=%7B#frag', true],
  ['url', 'http://[::1]:8080/asset', true],
  ['url', "https://cdn.example.test/a(1)!*',;=:@~.png", true],
  ['url', 'https://cdn.example.test/a b.png', false],
  ['url', 'https://cdn.example.test/ロゴ.png', false],
  ['url', 'https://cdn.example.test/a{1}.png', false],
  ['url', 'https://cdn.example.test/a|b', false],
  ['url', 'https://cdn.example.test/a^b', false],
  ['url', 'https://cdn.example.test/a"b', false],
  ['url', 'https://cdn.example.test/a<b>', false],
  ['url', 'https://cdn.example.test/a`b', false],
  ['url', 'https://cdn.example.test\\a', false],
  ['url', 'https://cdn.example.test/a%zz', false],
  ['url', 'https://cdn.example.test/a%2', false],
  ['url', 'https://cdn.example.test/a#b#c', false],
  ['url', 'https://cdn.example.test/a[1].png', false],
  ['url', 'https://cdn.example.test/a\tb', true], // zod's URL check drops the tab, as URL parsing does
  ['url', 'https://cdn.example.test/a\u007fb', false],
  ['url', 'ftp://cdn.example.test/a', false],
  ['url', 'cdn.example.test/a', false],
  // contentType: the client reads none, but the manifest must carry one
  ['contentType', 'image/png', true],
  ['contentType', '', false],
];

const payloadWith = (where: 'launchAsset' | 'assets.0', field: Field, value: string) => {
  const asset = where === 'launchAsset' ? { ...LAUNCH, [field]: value } : { url: URL_OK, hash: HASH, [field]: value };
  return where === 'launchAsset'
    ? { ...TRACK, launchAsset: asset }
    : { ...TRACK, launchAsset: LAUNCH, assets: [asset] };
};

describe('release assets the client would refuse (one table: server and publisher)', () => {
  for (const where of ['assets.0', 'launchAsset'] as const) {
    it.each(ROWS)(`${where}.%s = %j → accepted: %s`, (field, value, accepted) => {
      const result = ReleasePayload.safeParse(payloadWith(where, field, value));
      expect(result.success).toBe(accepted);
      if (!result.success) {
        // Every refusal names the field, so the answer's details.fields says which asset and why.
        expect(result.error.issues.map((issue) => issue.path.join('.'))).toContain(`${where}.${field}`);
      }
      if (field === 'url') return;
      // The publisher's plan (no URLs yet) applies the same rule to every other field.
      const planned = payloadWith(where, field, value) as { launchAsset: object; assets?: object[] };
      const strip = ({ url: _url, ...rest }: { url?: string }) => rest;
      const plan = {
        ...planned,
        launchAsset: strip(planned.launchAsset),
        assets: planned.assets?.map((asset) => strip(asset)),
      };
      expect(ReleasePlan.safeParse(plan).success).toBe(accepted);
    });
  }

  it('explains a key refusal with the client rule', () => {
    const result = ReleasePayload.safeParse(payloadWith('assets.0', 'key', 'assets/logo'));
    expect(result.error?.issues[0]?.message).toMatch(/file name on the device.*"\/"/);
  });

  it('refuses two assets under one key with different hashes, and allows the same file twice', () => {
    const key = md5('logo');
    const asset = (hash: string) => ({ url: URL_OK, hash, key, fileExtension: '.png' });
    const twice = ReleasePayload.safeParse({ ...TRACK, launchAsset: LAUNCH, assets: [asset(HASH), asset(HASH)] });
    expect(twice.success).toBe(true);
    const clash = ReleasePayload.safeParse({
      ...TRACK,
      launchAsset: LAUNCH,
      assets: [asset(HASH), asset(HASH), asset(OTHER_HASH)],
    });
    expect(clash.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['assets.2.key']);
    const launchClash = ReleasePayload.safeParse({
      ...TRACK,
      launchAsset: { ...LAUNCH, key },
      assets: [asset(HASH)],
    });
    expect(launchClash.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['assets.0.key']);
  });

  it('a stored release from before these rules still reads back', () => {
    const stored = {
      id: '7c6f1f7e-8a7b-4c38-9f52-0a6f6a1c2d3e',
      ...TRACK,
      launchAsset: { url: 'https://cdn.example.test/a b', hash: 'a'.repeat(43), key: 'assets/bundle' },
      assets: [{ url: URL_OK, hash: HASH, key: '..', contentType: '' }],
      otaConfig: null,
      updatePolicy: null,
      metadata: {},
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    expect(Release.safeParse(stored).success).toBe(true);
  });
});

describe('the rule functions', () => {
  it.each([
    ['abc', true],
    ['a.b', true],
    ['..a', true],
    ['', false],
    ['.', false],
    ['..', false],
    ['a/b', false],
    ['a\\b', false],
    ['a\u0000', false],
  ])('isSafeAssetFileName(%j) → %s', (name, safe) => {
    expect(isSafeAssetFileName(name)).toBe(safe);
  });

  it.each([
    ['a', 1],
    ['é', 2],
    ['ロ', 3],
    ['😀', 4],
  ])('utf8Length(%j) → %i', (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
    expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
  });

  it.each([
    [[], []],
    [[{ hash: 'a' }, { hash: 'b' }], []],
    [
      [
        { key: 'k', hash: 'a' },
        { key: 'k', hash: 'a' },
      ],
      [],
    ],
    [
      [
        { key: 'k', hash: 'a' },
        { key: 'k', hash: 'b' },
        { key: 'k', hash: 'c' },
      ],
      [1, 2],
    ],
    [
      [
        { key: 'k', hash: 'a' },
        { key: 'j', hash: 'a' },
      ],
      [],
    ],
  ])('conflictingAssetKeys(%j) → %j', (assets, conflicts) => {
    expect(conflictingAssetKeys(assets)).toEqual(conflicts);
  });
});
