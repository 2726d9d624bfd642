import type { FastifyBaseLogger } from 'fastify';
import pLimit from 'p-limit';
import type { AssetDelivery } from '../../storage/objects/asset-delivery.js';
import type { AssetEncodings } from '../../storage/objects/asset-encodings.js';
import { updateAssetKey } from '../../storage/objects/object-key.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import type { AssetDeletions } from '../gc/asset-deletions.js';
import { AssetMissing, AssetUrlMismatch, type NamedAsset } from '../ota-errors.js';
import type { LockedTrack } from '../release-store.js';
import { HEAD_CONCURRENCY } from './asset-upload-service.js';
import type { AssetUrls } from './asset-urls.js';

export interface ReleaseAssetCheckDeps {
  store: ObjectStore;
  /** The URLs Ferry serves stored objects at: the only URLs a release may list. */
  urls: Pick<AssetUrls, 'ofKey'>;
  /** Marks of deletions by garbage collection; without them nothing guards against a collection (unit tests). */
  deletions?: Pick<AssetDeletions, 'deletionVersion'>;
  /** Makes the compressed forms an asset still lacks (uploaded straight to S3, or before compression at upload). */
  encodings?: Pick<AssetEncodings, 'prepare'>;
  /** Reads the compressed forms into this instance's memory once they exist. */
  delivery?: Pick<AssetDelivery, 'preload'>;
  log?: FastifyBaseLogger;
}

/** A release about to list its assets: a new one (with the URLs it was given) or a stored one. */
interface ListingRelease {
  app: string;
  channel: string;
  runtimeVersion: string;
  launchAsset: { hash: string; url?: string };
  assets?: Array<{ hash: string; url?: string }>;
}

/** The assets a release lists, found stored, and the deletion version read before they were looked up. */
export interface StoredAssets {
  assets: NamedAsset[];
  deletionVersion: number;
}

/** The same URL, written the same way or not (`new URL` normalises case, ports and encoding). */
const sameUrl = (a: string, b: string): boolean =>
  URL.canParse(a) && URL.canParse(b) && new URL(a).href === new URL(b).href;

/**
 * Each listed asset once (a shared image is listed by several platforms' releases), with its key,
 * and the URL it was listed at (a stored release lists none: then the URL Ferry serves it at).
 */
const namedAssets = (release: ListingRelease, urls: Pick<AssetUrls, 'ofKey'>): NamedAsset[] => {
  const listed = [release.launchAsset, ...(release.assets ?? [])];
  const unique = [...new Map(listed.map((asset) => [`${asset.hash}\n${asset.url}`, asset])).values()];
  return unique.map((asset) => {
    const key = updateAssetKey(release.app, release.channel, release.runtimeVersion, asset.hash);
    return { key, hash: asset.hash, url: asset.url ?? urls.ofKey(key) };
  });
};

/**
 * A release may only list assets that exist, at the URL Ferry serves them at: the signed manifest
 * would otherwise send devices to a URL that answers 404, or to other bytes, and expo-updates then
 * fails the whole update. Assets are stored under a key derived from their hash (POST
 * /api/updates/assets hands out those uploads and their URLs), so "stored with that hash" is "the
 * object at that key exists", and the URL is the one of that key.
 *
 * A stored asset may still be deleted by a garbage collection between this look and the release's
 * commit. `ensureStored` reads the deletion version first, and `ensureNotCollected`, inside the
 * release's transaction, refuses what a collection deleted, or marked, since (asset-deletions.ts).
 */
export class ReleaseAssetCheck {
  constructor(private readonly deps: ReleaseAssetCheckDeps) {}

  /**
   * Throws AssetUrlMismatch naming every asset listed at a URL other than the one Ferry serves it at
   * now. For new releases only: a rollback restores URLs given out under an earlier configuration.
   */
  ensureOwnUrls(release: ListingRelease): void {
    const mismatched = namedAssets(release, this.deps.urls)
      .map((asset) => ({ ...asset, expected: this.deps.urls.ofKey(asset.key) }))
      .filter((asset) => !sameUrl(asset.url, asset.expected));
    if (mismatched.length > 0) throw new AssetUrlMismatch(mismatched);
  }

  /**
   * Throws AssetMissing naming every listed asset that is not stored; stores nothing either way.
   * Inside a track lock, `locked` reads the deletion version on the lock's own connection (SQLite
   * has only one).
   */
  async ensureStored(release: ListingRelease, locked?: Pick<LockedTrack, 'deletionVersion'>): Promise<StoredAssets> {
    const named = namedAssets(release, this.deps.urls);
    // Read before the look-ups: a deletion that begins or ends after it has a higher version.
    const deletionVersion = this.deps.deletions ? await (locked ?? this.deps.deletions).deletionVersion() : 0;
    const limit = pLimit(HEAD_CONCURRENCY);
    const stored = await Promise.all(
      named.map((asset) => limit(async () => (await this.deps.store.head(asset.key)) !== undefined)),
    );
    const absent = named.filter((_, index) => !stored[index]);
    if (absent.length > 0) throw new AssetMissing(absent);
    return { assets: named, deletionVersion };
  }

  /**
   * Inside the transaction that commits the release: refuses it when a garbage collection deleted,
   * or is deleting, one of its assets since `ensureStored` looked (ASSET_MISSING, with Retry-After).
   */
  async ensureNotCollected(locked: Pick<LockedTrack, 'assetsCollectedSince'>, stored: StoredAssets): Promise<void> {
    if (!this.deps.deletions) return;
    const collected = new Set(
      await locked.assetsCollectedSince(
        stored.assets.map((asset) => asset.key),
        stored.deletionVersion,
      ),
    );
    if (collected.size > 0)
      throw new AssetMissing(
        [],
        stored.assets.filter((asset) => collected.has(asset.key)),
      );
  }

  /**
   * A promotion's copy lists the source release's assets under its own channel (asset keys are per
   * channel and runtimeVersion): each one the target channel does not hold yet is copied there,
   * checked against its hash and size as an upload is. An asset the source channel no longer holds
   * (collected) fails the promotion as a publish would: 422 ASSET_MISSING, nothing stored. Returns
   * the URL Ferry serves each asset at on the target channel, by hash.
   */
  async ensureCopied(source: ListingRelease, channel: string): Promise<Map<string, string>> {
    const hashes = [...new Set([source.launchAsset, ...(source.assets ?? [])].map((asset) => asset.hash))];
    const limit = pLimit(HEAD_CONCURRENCY);
    const missing: NamedAsset[] = [];
    await Promise.all(
      hashes.map((hash) =>
        limit(async () => {
          const target = updateAssetKey(source.app, channel, source.runtimeVersion, hash);
          if ((await this.deps.store.head(target)) !== undefined) return;
          const key = updateAssetKey(source.app, source.channel, source.runtimeVersion, hash);
          const stored = await this.deps.store.get(key);
          if (!stored) {
            missing.push({ key, hash, url: this.deps.urls.ofKey(key) });
            return;
          }
          await this.deps.store.putStream(target, stored.body, {
            contentType: stored.contentType,
            sha256: hash,
            size: stored.size,
            maxBytes: stored.size,
          });
        }),
      ),
    );
    if (missing.length > 0) throw new AssetMissing(missing);
    return new Map(
      hashes.map((hash) => [
        hash,
        this.deps.urls.ofKey(updateAssetKey(source.app, channel, source.runtimeVersion, hash)),
      ]),
    );
  }

  /**
   * Makes sure every listed asset has its compressed forms before the release goes live: the
   * publisher waits for what its upload did not already make (an upload straight to S3 never
   * passes through here), so the first device downloads as fast as the hundredth.
   */
  async ensureEncoded(release: ListingRelease) {
    const { encodings } = this.deps;
    if (!encodings) return;
    const keys = new Set(
      [release.launchAsset, ...(release.assets ?? [])].map((asset) =>
        updateAssetKey(release.app, release.channel, release.runtimeVersion, asset.hash),
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
