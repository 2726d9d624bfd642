import { ReleasePayload } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import type { ExportedFile, ExportedPlatform } from './exported-update.js';
import { buildReleasePlan, checkReleasePlan, withAssetUrls } from './release-payload.js';

const file = (relativePath: string, hash: string, key: string, fileExtension?: string): ExportedFile => ({
  file: `/export/${relativePath}`,
  relativePath,
  size: 1,
  hash,
  key,
  contentType: 'image/png',
  ...(fileExtension ? { fileExtension } : {}),
});
const HASH_A = `${'A'.repeat(42)}A`;
const HASH_B = `${'B'.repeat(42)}E`;
const HASH_C = `${'C'.repeat(42)}I`;
const MD5 = '4f1cb2cac2370cd5050681232e8575a8';

const exported = (assets: ExportedFile[]): ExportedPlatform => ({
  platform: 'ios',
  launchAsset: { ...file('_expo/static/js/ios/index.hbc', HASH_A, '9d01842d6ee1224f7188971c5d397115', '.bundle') },
  assets,
});
const planOf = (platform: ExportedPlatform) =>
  buildReleasePlan({
    channel: 'production',
    runtimeVersion: '1.0.0(1)',
    exported: platform,
    otaConfig: { name: 'app' },
    fingerprint: 'fp',
    metadata: {},
    environment: { updatePolicy: undefined, allowNativeChange: false },
    groupId: '22222222-2222-4222-8222-222222222222',
  });

describe('the release plan: checked with the server’s rules before any upload', () => {
  it('an export with Metro keys (md5 hex) passes, and with the URLs it is the body the server accepts', () => {
    const platform = exported([
      file(`assets/${MD5}`, HASH_B, MD5, '.png'),
      file('assets/noext', HASH_C, 'c'.repeat(32)),
    ]);
    const plan = planOf(platform);
    expect(() => checkReleasePlan(plan, platform)).not.toThrow();
    const urls = new Map([HASH_A, HASH_B, HASH_C].map((hash) => [hash, `https://cdn.test/objects/${hash}`]));
    const payload = withAssetUrls(plan, urls);
    expect(ReleasePayload.safeParse(payload).success).toBe(true);
    expect(payload.assets?.map((asset) => asset.url)).toEqual([urls.get(HASH_B), urls.get(HASH_C)]);
  });

  it.each([
    [
      'a key with a slash',
      file('assets/logo.png', HASH_B, 'assets/logo', '.png'),
      /assets\.0\.key \(assets\/logo\.png\): must be usable as a file name/,
    ],
    ['the key ".."', file('assets/x', HASH_B, '..'), /assets\.0\.key \(assets\/x\): .*"\." or "\.\."/],
    [
      'a hash no SHA-256 has',
      file('assets/y', `${'B'.repeat(42)}B`, MD5),
      /assets\.0\.hash \(assets\/y\): .*last character/,
    ],
  ])('%s is refused, naming the field and the file', (_name, asset, message) => {
    const platform = exported([asset]);
    const refuse = () => checkReleasePlan(planOf(platform), platform);
    expect(refuse).toThrow(CliError);
    expect(refuse).toThrow(/ios: the server would refuse this release, so nothing was uploaded/);
    expect(refuse).toThrow(message);
  });

  it('two different files under one key are refused (the device keeps one file per key)', () => {
    const platform = exported([file('assets/a', HASH_B, MD5, '.png'), file('assets/b', HASH_C, MD5, '.png')]);
    expect(() => checkReleasePlan(planOf(platform), platform)).toThrow(
      /assets\.1\.key \(assets\/b\): .*one file per key/,
    );
  });

  it('a hash the server gave no URL for is an error, not a release without one', () => {
    const platform = exported([]);
    expect(() => withAssetUrls(planOf(platform), new Map())).toThrow(/gave no URL/);
  });
});
