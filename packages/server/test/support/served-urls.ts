import { objectKeyToUrlPath, updateAssetKey } from '../../src/storage/objects/object-key.js';

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
      entry.url = `${assetBaseUrl}/${objectKeyToUrlPath(updateAssetKey('default', channel, runtimeVersion, entry.hash))}`;
    } catch {
      // Not a key the server would store (a test of validation): left for the server to refuse.
    }
  };
  move(release.launchAsset);
  if (Array.isArray(release.assets)) release.assets.forEach(move);
  return JSON.stringify(release);
}
