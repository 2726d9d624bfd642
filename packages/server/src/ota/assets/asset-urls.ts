import { objectKeyToUrlPath, updateAssetKey } from '../../storage/objects/object-key.js';

/** A release's place, which with an asset's hash names the object (updateAssetKey). */
export interface AssetOwner {
  app: string;
  channel: string;
  runtimeVersion: string;
}

/**
 * The URLs devices download assets from, built from the current configuration: under
 * ASSET_PUBLIC_BASE_URL when set, else this server's PUBLIC_URL + /objects. Releases store only what
 * identifies an object (its hash; the key follows from the release's track), so every instance
 * serves the same release with its configuration's URLs, and a move to a CDN moves every release.
 */
export class AssetUrls {
  constructor(private readonly baseUrl: () => string) {}

  /** What every asset URL starts with now (without a trailing slash). */
  get base(): string {
    return this.baseUrl();
  }

  /** The URL of the object stored at `key`. */
  ofKey(key: string): string {
    return `${this.baseUrl()}/${objectKeyToUrlPath(key)}`;
  }

  /** The URL of a release's asset. */
  of(owner: AssetOwner, hash: string): string {
    return this.ofKey(updateAssetKey(owner.app, owner.channel, owner.runtimeVersion, hash));
  }
}
