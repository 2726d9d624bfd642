import { createHash } from 'node:crypto';
import type { ReleasePayloadInput } from '@ferry/contracts';
import { objectKeyToUrlPath, updateAssetKey } from '../../src/storage/objects/object-key.js';
import { uploadAssets } from './publisher.js';
import type { TestServer } from './test-server.js';

/** The content behind each hash hashOf made, so a test's assets can be uploaded before it publishes. */
const contentByHash = new Map<string, string>();

export const hashOf = (content: string): string => {
  const hash = createHash('sha256').update(content).digest('base64url');
  contentByHash.set(hash, content);
  return hash;
};

/**
 * The origin of the asset URLs releasePayload lists. A release may only list the URL the server
 * serves each asset at, which depends on its address: the test client (servedAt) puts that URL in
 * place of each of these when it posts a release.
 */
export const PLACEHOLDER_ASSET_ORIGIN = 'https://cdn.example.test';

/**
 * A release request body with every asset listed under PLACEHOLDER_ASSET_ORIGIN moved to the URL
 * the server serves it at (`assetBaseUrl`: its ASSET_PUBLIC_BASE_URL, or its address + /objects),
 * as `ferry publish` lists the URLs POST /api/updates/assets answered. Anything else is left as it is.
 */
export function servedAt(body: string, assetBaseUrl: string): string {
  let release: { channel?: unknown; runtimeVersion?: unknown; launchAsset?: unknown; assets?: unknown };
  try {
    release = JSON.parse(body);
  } catch {
    return body;
  }
  const { channel, runtimeVersion } = release ?? {};
  if (typeof channel !== 'string' || typeof runtimeVersion !== 'string') return body;
  const move = (asset: unknown) => {
    const entry = asset as { url?: unknown; hash?: unknown } | null;
    if (typeof entry?.url !== 'string' || typeof entry.hash !== 'string') return;
    if (!entry.url.startsWith(`${PLACEHOLDER_ASSET_ORIGIN}/`)) return;
    try {
      entry.url = `${assetBaseUrl}/${objectKeyToUrlPath(updateAssetKey(channel, runtimeVersion, entry.hash))}`;
    } catch {
      // Not a key the server would store (a test of validation): left for the server to refuse.
    }
  };
  move(release.launchAsset);
  if (Array.isArray(release.assets)) release.assets.forEach(move);
  return JSON.stringify(release);
}

/** A valid release payload; override any field per test. */
export function releasePayload(overrides: Partial<ReleasePayloadInput> = {}): ReleasePayloadInput {
  return {
    channel: 'production',
    platform: 'ios',
    runtimeVersion: '1.0.0(1)',
    launchAsset: { url: `${PLACEHOLDER_ASSET_ORIGIN}/bundle.hbc`, hash: hashOf('bundle') },
    assets: [{ url: `${PLACEHOLDER_ASSET_ORIGIN}/logo.png`, hash: hashOf('logo') }],
    otaConfig: { name: 'app', slug: 'app', scheme: 'app' },
    fingerprint: 'fp-a',
    metadata: { commit: 'abc123', branch: 'main', actor: 'ci', runId: '42' },
    ...overrides,
  };
}

/**
 * Uploads the assets a payload lists (those made with hashOf) through POST /api/updates/assets, as
 * `ferry publish` does before it registers a release: the release endpoint refuses assets that are
 * not stored. A payload too malformed to name a track is left alone (the release endpoint's
 * validation is what such a test is about).
 */
export async function storeAssets(server: TestServer, payload: unknown): Promise<void> {
  const release = payload as Partial<ReleasePayloadInput> | undefined;
  if (typeof release?.channel !== 'string' || typeof release.runtimeVersion !== 'string') return;
  const listed = [release.launchAsset, ...(Array.isArray(release.assets) ? release.assets : [])];
  const files = listed
    .map((asset) => (asset && typeof asset.hash === 'string' ? contentByHash.get(asset.hash) : undefined))
    .filter((content) => content !== undefined)
    .map((content) => ({ body: Buffer.from(content), contentType: 'application/octet-stream', fileExtension: '.bin' }));
  if (files.length === 0) return;
  await uploadAssets(server, { channel: release.channel, runtimeVersion: release.runtimeVersion }, files).catch(
    () => undefined,
  );
}
