import type { AssetUploadCheckRequest, AssetUploadStatus } from '@ferry/contracts';
import pLimit from 'p-limit';
import { updateAssetKey } from '../../storage/objects/object-key.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import type { AssetDeletions } from '../gc/asset-deletions.js';
import { AssetTooLarge } from '../ota-errors.js';
import type { AssetUrls } from './asset-urls.js';

/** How long a publisher has to upload once it was told an asset is missing. */
export const UPLOAD_URL_TTL_SECONDS = 3600;
/** Object-store lookups in flight at once for one request (asset checks, release checks). */
export const HEAD_CONCURRENCY = 16;

export interface AssetUploadServiceDeps {
  store: ObjectStore;
  /** Where devices download assets from (ASSET_PUBLIC_BASE_URL, else PUBLIC_URL/objects). */
  urls: AssetUrls;
  uploadLimitBytes: number;
  /** Marks of deletions by garbage collection; without them every asset is looked up as it is (unit tests). */
  deletions?: Pick<AssetDeletions, 'pendingAmong' | 'endInterrupted'>;
}

/**
 * The publisher's side of asset storage: which assets of a track are already stored, where each
 * will be served from, and a direct upload URL for each one that is missing. Nothing is written here.
 */
export class AssetUploadService {
  constructor(private readonly deps: AssetUploadServiceDeps) {}

  async check(app: string, request: AssetUploadCheckRequest): Promise<AssetUploadStatus[]> {
    const tooLarge = request.assets.find((asset) => asset.size > this.deps.uploadLimitBytes);
    if (tooLarge) {
      throw new AssetTooLarge(tooLarge.hash, tooLarge.size, this.deps.uploadLimitBytes);
    }
    // The same file listed twice (a shared image, say) is looked up and uploaded once.
    const unique = [...new Map(request.assets.map((asset) => [asset.hash, asset])).values()];
    const keys = unique.map((asset) => updateAssetKey(app, request.channel, request.runtimeVersion, asset.hash));
    const collecting = await this.collecting(keys);
    const limit = pLimit(HEAD_CONCURRENCY);
    return Promise.all(
      unique.map((asset, index) =>
        limit(async (): Promise<AssetUploadStatus> => {
          const key = keys[index]!;
          const url = this.deps.urls.ofKey(key);
          // Being deleted: a release listing it would be refused, so it is reported missing.
          if (!collecting.has(key) && (await this.deps.store.head(key)))
            return { hash: asset.hash, status: 'present', url };
          const upload = await this.deps.store.signedPutUrl(key, {
            contentType: asset.contentType,
            ttlSeconds: UPLOAD_URL_TTL_SECONDS,
            sha256Base64Url: asset.hash,
            size: asset.size,
          });
          return { hash: asset.hash, status: 'missing', url, uploadUrl: upload.url, uploadHeaders: upload.headers };
        }),
      ),
    );
  }

  /**
   * The keys a garbage collection is deleting. Marks left by a collection that stopped half-way
   * end here once no collection runs (endInterrupted), so a crash never blocks publishing until
   * the next collection.
   */
  private async collecting(keys: string[]): Promise<Set<string>> {
    const { deletions } = this.deps;
    if (!deletions) return new Set();
    const pending = await deletions.pendingAmong(keys);
    if (pending.size === 0) return pending;
    await deletions.endInterrupted();
    return deletions.pendingAmong(keys);
  }
}
