import type { Manifest, ManifestAsset, ManifestNamespace, Release } from '@ferry/contracts';
import mime from 'mime';
import type { AssetUrls } from '../assets/asset-urls.js';

/** An asset as a release stores it: what identifies it and how the client names it. */
type StoredAsset = Release['launchAsset'];
/** Where a release's assets are downloaded from. */
type AssetUrlOf = Pick<AssetUrls, 'of'>;

const FILE_EXTENSION = /^\.[A-Za-z0-9]{1,32}$/;

/**
 * The extension of the last path segment of the URL a release was given (`…/logo.png` → `.png`),
 * if it has a usable one. Manifests of releases that gave no fileExtension took it from there
 * before asset URLs were built from the configuration; they keep doing so, so only their URLs change.
 */
function extensionOfGivenUrl(url: string | undefined): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  const { pathname } = new URL(url);
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const extension = last.slice(dot).toLowerCase();
  return FILE_EXTENSION.test(extension) ? extension : undefined;
}

/**
 * One asset as the client downloads it, from `url` (built from the current configuration, never
 * the URL the release was given). The publisher normally sends key, contentType and
 * fileExtension; when it does not, they are derived (docs/ota.md lists the rules):
 * - fileExtension: the given URL's extension, else the content type's, else `.bundle` (launch) or `.bin`;
 * - contentType: the extension's type, else `application/javascript` (launch) or
 *   `application/octet-stream`;
 * - key: the hash, which is unique per content.
 */
export function manifestAssetOf(asset: StoredAsset, role: 'launch' | 'asset', url: string): ManifestAsset {
  const launch = role === 'launch';
  const typeExtension = asset.contentType ? mime.getExtension(asset.contentType.split(';')[0]!.trim()) : null;
  const fileExtension =
    asset.fileExtension ??
    extensionOfGivenUrl(asset.url) ??
    (typeExtension && !launch && FILE_EXTENSION.test(`.${typeExtension}`) ? `.${typeExtension}` : undefined) ??
    (launch ? '.bundle' : '.bin');
  const contentType =
    asset.contentType ??
    (launch ? 'application/javascript' : (mime.getType(fileExtension.slice(1)) ?? 'application/octet-stream'));
  return { hash: asset.hash, key: asset.key ?? asset.hash, contentType, fileExtension, url };
}

/**
 * The manifest body of a release, in the namespace the request used (decisions.md §3–§4), its
 * assets at `urls`. Pure: the same release, namespace and URLs always give the same manifest, so
 * its signed bytes can be kept (per asset base URL).
 */
export function assembleManifest(release: Release, ns: ManifestNamespace, urls: AssetUrlOf): Manifest {
  const extra: Record<string, unknown> = {};
  // Without <ns>Client the app's constants are null after the update and iOS crashes at start (spec rule 6).
  if (release.otaConfig !== null) extra[`${ns}Client`] = release.otaConfig;
  if (release.updatePolicy !== null) extra.updatePolicy = release.updatePolicy;

  // Manifest metadata is public and string-only: the channel, and the commit when known.
  const metadata: Record<string, string> = { channel: release.channel };
  if (release.metadata.commit) metadata.commit = release.metadata.commit;

  return {
    id: release.id,
    createdAt: release.createdAt,
    runtimeVersion: release.runtimeVersion,
    launchAsset: manifestAssetOf(release.launchAsset, 'launch', urls.of(release, release.launchAsset.hash)),
    assets: release.assets.map((asset) => manifestAssetOf(asset, 'asset', urls.of(release, asset.hash))),
    metadata,
    extra,
  };
}
