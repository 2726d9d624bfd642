import type { Release, ReleaseAsset } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { assembleManifest, manifestAssetOf } from './assemble-manifest.js';

const HASH = 'JCcs2u_4LMX6zazNmCpvBbYMRQRwS7-UwZpjiGWYgLs';
const asset = (over: Partial<ReleaseAsset> = {}): ReleaseAsset => ({
  url: 'https://cdn.test/assets/abc',
  hash: HASH,
  ...over,
});

const release = (over: Partial<Release> = {}): Release => ({
  id: '5b0c4f8e-3d7a-4b8e-9f59-1c2d3e4f5a6b',
  channel: 'production',
  platform: 'ios',
  runtimeVersion: '1.2.0(57)',
  launchAsset: asset({
    url: 'https://cdn.test/bundle',
    contentType: 'application/javascript',
    fileExtension: '.bundle',
    key: 'k',
  }),
  assets: [],
  otaConfig: { name: 'App', scheme: 'app' },
  updatePolicy: 2,
  metadata: { commit: 'abc', branch: 'main', actor: 'alice', runId: '9', fingerprint: 'fp' },
  createdAt: '2026-01-02T03:04:05.006Z',
  ...over,
});

describe('manifestAssetOf: derived defaults', () => {
  it.each<
    [string, Partial<ReleaseAsset>, 'launch' | 'asset', { contentType: string; fileExtension: string; key: string }]
  >([
    [
      'all given',
      { key: 'md5', contentType: 'image/png', fileExtension: '.png' },
      'asset',
      { key: 'md5', contentType: 'image/png', fileExtension: '.png' },
    ],
    [
      'nothing given, asset',
      {},
      'asset',
      { key: HASH, contentType: 'application/octet-stream', fileExtension: '.bin' },
    ],
    [
      'nothing given, launch',
      {},
      'launch',
      { key: HASH, contentType: 'application/javascript', fileExtension: '.bundle' },
    ],
    [
      'extension from the URL',
      { url: 'https://cdn.test/a/logo.PNG' },
      'asset',
      { key: HASH, contentType: 'image/png', fileExtension: '.png' },
    ],
    [
      'extension from the content type',
      { contentType: 'image/jpeg' },
      'asset',
      { key: HASH, contentType: 'image/jpeg', fileExtension: '.jpg' },
    ],
    [
      'type from the extension',
      { fileExtension: '.ttf' },
      'asset',
      { key: HASH, contentType: 'font/ttf', fileExtension: '.ttf' },
    ],
    [
      'launch .hbc keeps the JS type',
      { url: 'https://cdn.test/ios-1.hbc' },
      'launch',
      { key: HASH, contentType: 'application/javascript', fileExtension: '.hbc' },
    ],
    [
      'unknown extension',
      { fileExtension: '.ferryq' },
      'asset',
      { key: HASH, contentType: 'application/octet-stream', fileExtension: '.ferryq' },
    ],
    [
      'dotted path segment is not an extension',
      { url: 'https://cdn.test/v1.2/asset' },
      'asset',
      { key: HASH, contentType: 'application/octet-stream', fileExtension: '.bin' },
    ],
  ])('%s', (_name, over, role, expected) => {
    expect(manifestAssetOf(asset(over), role)).toEqual({ hash: HASH, url: asset(over).url, ...expected });
  });
});

describe('assembleManifest', () => {
  it.each(['ota', 'expo'] as const)('puts the app config under extra.%sClient', (ns) => {
    const manifest = assembleManifest(release(), ns);
    expect(manifest.extra).toEqual({ [`${ns}Client`]: { name: 'App', scheme: 'app' }, updatePolicy: 2 });
  });

  it.each([
    ['config and policy', release(), { otaClient: { name: 'App', scheme: 'app' }, updatePolicy: 2 }],
    ['no config', release({ otaConfig: null }), { updatePolicy: 2 }],
    ['no policy', release({ updatePolicy: null }), { otaClient: { name: 'App', scheme: 'app' } }],
    ['neither', release({ otaConfig: null, updatePolicy: null }), {}],
    [
      'policy 3 is still sent',
      release({ updatePolicy: 3 }),
      { otaClient: { name: 'App', scheme: 'app' }, updatePolicy: 3 },
    ],
  ])('extra with %s', (_name, input, extra) => {
    expect(assembleManifest(input, 'ota').extra).toEqual(extra);
  });

  it('carries id, createdAt, runtimeVersion and public metadata only', () => {
    const manifest = assembleManifest(release(), 'expo');
    expect(manifest).toMatchObject({
      id: '5b0c4f8e-3d7a-4b8e-9f59-1c2d3e4f5a6b',
      createdAt: '2026-01-02T03:04:05.006Z',
      runtimeVersion: '1.2.0(57)',
      metadata: { channel: 'production', commit: 'abc' },
    });
    expect(JSON.stringify(manifest)).not.toMatch(/alice|fp"|runId/);
  });

  it('metadata is at least the channel', () => {
    expect(assembleManifest(release({ metadata: {} }), 'ota').metadata).toEqual({ channel: 'production' });
  });

  it('is deterministic: the same release gives the same bytes', () => {
    expect(JSON.stringify(assembleManifest(release(), 'ota'))).toBe(JSON.stringify(assembleManifest(release(), 'ota')));
  });
});
