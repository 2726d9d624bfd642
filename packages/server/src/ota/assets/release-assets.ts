import type { ReleasePayload } from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import pLimit from 'p-limit';
import type { AssetDelivery } from '../../storage/objects/asset-delivery.js';
import type { AssetEncodings } from '../../storage/objects/asset-encodings.js';
import { updateAssetKey } from '../../storage/objects/object-key.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import { AssetMissing } from '../ota-errors.js';
import { HEAD_CONCURRENCY } from './asset-upload-service.js';

export interface ReleaseAssetCheckDeps {
  store: ObjectStore;
  /** Makes the compressed forms an asset still lacks (uploaded straight to S3, or before compression at upload). */
  encodings?: Pick<AssetEncodings, 'prepare'>;
  /** Reads the compressed forms into this instance's memory once they exist. */
  delivery?: Pick<AssetDelivery, 'preload'>;
  log?: FastifyBaseLogger;
  /** ASSET_PUBLIC_BASE_URL when set: asset URLs must then lie under it. */
  publicBaseUrl: string | undefined;
}

/**
 * A release may only list assets that exist: the signed manifest would otherwise send devices to a
 * URL that answers 404, and expo-updates then fails the whole update. Assets are stored under a key
 * derived from their hash (POST /api/updates/assets hands out those uploads), so "stored with that
 * hash" is "the object at that key exists". Where a CDN serves them (ASSET_PUBLIC_BASE_URL) the URL
 * must also point under it.
 */
export class ReleaseAssetCheck {
  constructor(private readonly deps: ReleaseAssetCheckDeps) {}

  /** Throws AssetMissing naming every listed asset that is not stored; stores nothing either way. */
  async ensureStored(release: Pick<ReleasePayload, 'channel' | 'runtimeVersion' | 'launchAsset' | 'assets'>) {
    const listed = [release.launchAsset, ...(release.assets ?? [])];
    const unique = [...new Map(listed.map((asset) => [`${asset.hash}\n${asset.url}`, asset])).values()];
    const base = this.deps.publicBaseUrl?.replace(/\/*$/, '/');
    const limit = pLimit(HEAD_CONCURRENCY);
    const missing = await Promise.all(
      unique.map((asset) =>
        limit(async () => {
          const key = updateAssetKey(release.channel, release.runtimeVersion, asset.hash);
          const outsideBase = base !== undefined && !asset.url.startsWith(base);
          const stored = outsideBase ? false : (await this.deps.store.head(key)) !== undefined;
          return stored ? undefined : { key, hash: asset.hash, url: asset.url };
        }),
      ),
    );
    const absent = missing.filter((entry) => entry !== undefined);
    if (absent.length > 0) throw new AssetMissing(absent);
  }

  /**
   * Makes sure every listed asset has its compressed forms before the release goes live: the
   * publisher waits for what its upload did not already make (an upload straight to S3 never
   * passes through here), so the first device downloads as fast as the hundredth.
   */
  async ensureEncoded(release: Pick<ReleasePayload, 'channel' | 'runtimeVersion' | 'launchAsset' | 'assets'>) {
    const { encodings } = this.deps;
    if (!encodings) return;
    const keys = new Set(
      [release.launchAsset, ...(release.assets ?? [])].map((asset) =>
        updateAssetKey(release.channel, release.runtimeVersion, asset.hash),
      ),
    );
    const limit = pLimit(HEAD_CONCURRENCY);
    await Promise.all(
      [...keys].map((key) =>
        limit(async () => {
          await encodings.prepare(key);
          // Only a head start: a failure here costs the first device a read, not the publish.
          await this.deps.delivery
            ?.preload(key)
            .catch((err: unknown) => this.deps.log?.warn({ err, key }, 'could not preload an asset'));
        }),
      ),
    );
  }
}
