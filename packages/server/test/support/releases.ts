import { createHash } from 'node:crypto';
import type { ReleasePayloadInput } from '@ferry/contracts';
import { uploadAssets } from './publisher.js';
import { PLACEHOLDER_ASSET_ORIGIN } from './served-urls.js';
import type { TestServer } from './test-server.js';

/** The content behind each hash hashOf made, so a test's assets can be uploaded before it publishes. */
const contentByHash = new Map<string, string>();

export const hashOf = (content: string): string => {
  const hash = createHash('sha256').update(content).digest('base64url');
  contentByHash.set(hash, content);
  return hash;
};

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

export { PLACEHOLDER_ASSET_ORIGIN, servedAt } from './served-urls.js';
