import type { Release } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { AssetUrls } from '../assets/asset-urls.js';
import { assembleManifest, manifestAssetOf } from './assemble-manifest.js';

type StoredAsset = Release['launchAsset'];
const HASH = 'JCcs2u_4LMX6zazNmCpvBbYMRQRwS7-UwZpjiGWYgLs';
const asset = (over: Partial<StoredAsset> = {}): StoredAsset => ({
  url: 'https://cdn.test/assets/abc',
  hash: HASH,
  ...over,
});
const URL_OF_ASSET = 'https://cdn.test/ota/updates/production/1.2.0(57)/assets/x';
const urls = new AssetUrls(() => 'https://cdn.test/ota');

const release = (over: Partial<Release> = {}): Release => ({
  id: '5b0c4f8e-3d7a-4b8e-9f59-1c2d3e4f5a6b',
  channel: 'production',
  platform: 'ios',
  runtimeVersion: '1.2.0(57)',
  launchAsset: asset({
    contentType: 'application/javascript',
    fileExtension: '.bundle',
    key: 'k',
  }),
  assets: [],
  otaConfig: { name: 'App', scheme: 'app' },
  updatePolicy: 2,
  metadata: { commit: 'abc', branch: 'main', actor: 'alice', runId: '9', fingerprint: 'fp' },
  createdAt: '2026-01-02T03:04:05.006Z',
  groupId: null,
  app: 'default',
  ...over,
});

describe('manifestAssetOf: derived defaults', () => {
  it.each<
    [string, Partial<StoredAsset>, 'launch' | 'asset', { contentType: string; fileExtension: string; key: string }]
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
      'extension from the URL the release was given',
      { url: 'https://cdn.test/a/logo.PNG' },
      'asset',
      { key: HASH, contentType: 'image/png', fileExtension: '.png' },
    ],
    [
      'dotted path segment is not an extension',
      { url: 'https://cdn.test/v1.2/asset' },
      'asset',
      { key: HASH, contentType: 'application/octet-stream', fileExtension: '.bin' },
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
      { fileExtension: '.hbc' },
      'launch',
      { key: HASH, contentType: 'application/javascript', fileExtension: '.hbc' },
    ],
    [
      'unknown extension',
      { fileExtension: '.ferryq' },
      'asset',
      { key: HASH, contentType: 'application/octet-stream', fileExtension: '.ferryq' },
    ],
  ])('%s', (_name, over, role, expected) => {
    expect(manifestAssetOf(asset(over), role, URL_OF_ASSET)).toEqual({ hash: HASH, url: URL_OF_ASSET, ...expected });
  });
});

describe('assembleManifest', () => {
  it.each(['ota', 'expo'] as const)('puts the app config under extra.%sClient', (ns) => {
    const manifest = assembleManifest(release(), ns, urls);
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
    expect(assembleManifest(input, 'ota', urls).extra).toEqual(extra);
  });

  it('carries id, createdAt, runtimeVersion and public metadata only', () => {
    const manifest = assembleManifest(release(), 'expo', urls);
    expect(manifest).toMatchObject({
      id: '5b0c4f8e-3d7a-4b8e-9f59-1c2d3e4f5a6b',
      createdAt: '2026-01-02T03:04:05.006Z',
      runtimeVersion: '1.2.0(57)',
      metadata: { channel: 'production', commit: 'abc' },
    });
    expect(JSON.stringify(manifest)).not.toMatch(/alice|fp"|runId/);
  });

  it('metadata is at least the channel', () => {
    expect(assembleManifest(release({ metadata: {} }), 'ota', urls).metadata).toEqual({ channel: 'production' });
  });

  it('is deterministic: the same release gives the same bytes', () => {
    expect(JSON.stringify(assembleManifest(release(), 'ota', urls))).toBe(
      JSON.stringify(assembleManifest(release(), 'ota', urls)),
    );
  });

  it('builds every asset URL from the base it is given and the asset, whatever URL the release was given', () => {
    const image = asset({ hash: 'a'.repeat(43), url: 'https://publisher.example/old/logo.png' });
    const manifest = assembleManifest(release({ assets: [image] }), 'expo', urls);
    expect(manifest.launchAsset.url).toBe(`https://cdn.test/ota/updates/production/1.2.0(57)/assets/${HASH}`);
    expect(manifest.assets[0]?.url).toBe(`https://cdn.test/ota/updates/production/1.2.0(57)/assets/${'a'.repeat(43)}`);
    const moved = assembleManifest(release({ assets: [image] }), 'expo', new AssetUrls(() => 'https://elsewhere.test'));
    expect(moved.launchAsset.url).toBe(`https://elsewhere.test/updates/production/1.2.0(57)/assets/${HASH}`);
    expect({ ...moved, launchAsset: manifest.launchAsset, assets: manifest.assets }).toEqual(manifest);
  });
});
