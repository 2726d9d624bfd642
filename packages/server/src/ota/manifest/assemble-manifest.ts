import type { Manifest, ManifestAsset, ManifestNamespace, Release, ReleaseAsset } from '@ferry/contracts';
import mime from 'mime';

const FILE_EXTENSION = /^\.[A-Za-z0-9]{1,32}$/;

/** The extension of a URL's last path segment (`…/logo.png` → `.png`), if it has a usable one. */
function extensionOfUrl(url: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const extension = last.slice(dot).toLowerCase();
  return FILE_EXTENSION.test(extension) ? extension : undefined;
}

/**
 * One asset as the client downloads it. The publisher normally sends key, contentType and
 * fileExtension; when it does not, they are derived (docs/ota.md lists the rules):
 * - fileExtension: the URL's extension, else the content type's, else `.bundle` (launch) or `.bin`;
 * - contentType: the extension's type, else `application/javascript` (launch) or
 *   `application/octet-stream`;
 * - key: the hash, which is unique per content.
 */
export function manifestAssetOf(asset: ReleaseAsset, role: 'launch' | 'asset'): ManifestAsset {
  const launch = role === 'launch';
  const typeExtension = asset.contentType ? mime.getExtension(asset.contentType.split(';')[0]!.trim()) : null;
  const fileExtension =
    asset.fileExtension ??
    extensionOfUrl(asset.url) ??
    (typeExtension && !launch && FILE_EXTENSION.test(`.${typeExtension}`) ? `.${typeExtension}` : undefined) ??
    (launch ? '.bundle' : '.bin');
  const contentType =
    asset.contentType ??
    (launch ? 'application/javascript' : (mime.getType(fileExtension.slice(1)) ?? 'application/octet-stream'));
  return { hash: asset.hash, key: asset.key ?? asset.hash, contentType, fileExtension, url: asset.url };
}

/**
 * The manifest body of a release, in the namespace the request used (decisions.md §3–§4). Pure: the
 * same release and namespace always give the same manifest, so its signed bytes can be cached.
 */
export function assembleManifest(release: Release, ns: ManifestNamespace): Manifest {
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
    launchAsset: manifestAssetOf(release.launchAsset, 'launch'),
    assets: release.assets.map((asset) => manifestAssetOf(asset, 'asset')),
    metadata,
    extra,
  };
}
