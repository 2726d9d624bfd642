import { MANIFEST_NAMESPACES, type ManifestNamespace, type Release } from '@ferry/contracts';
import type { ManifestSigner } from '../../signing/manifest-signer.js';
import { AssetUrls } from '../assets/asset-urls.js';
import { assembleManifest } from './assemble-manifest.js';

/** One manifest of a release as signed and stored: its exact JSON and the signature header over it. */
export interface ManifestSignature {
  namespace: ManifestNamespace;
  /** The signer's identity (ManifestSigner.identity) when it was signed. */
  certificate: string;
  /** The manifest JSON, byte for byte the text that was signed. */
  body: string;
  /** The `<ns>-signature` header value over `body`. */
  signature: string;
  /**
   * The base of the asset URLs in `body` (AssetUrls.base); null for a directive, which lists no
   * asset. Signed under another base, a manifest is signed again (asset URLs follow the configuration).
   */
  assetBaseUrl: string | null;
}

/**
 * Signs a release's manifest in every header namespace. Publish and rollback call it inside the
 * track lock, so each release is signed once, before any device can ask for it.
 */
export function signRelease(release: Release, signer: ManifestSigner, urls: AssetUrls): ManifestSignature[] {
  return MANIFEST_NAMESPACES.map((namespace) => signNamespace(release, namespace, signer, urls));
}

export function signNamespace(
  release: Release,
  namespace: ManifestNamespace,
  signer: ManifestSigner,
  urls: AssetUrls,
): ManifestSignature {
  // The base read once: the body and the record of what it was built with must agree.
  const base = urls.base;
  const fixed = new AssetUrls(() => base);
  // JSON.stringify escapes lone surrogates, so the text survives UTF-8 and the database unchanged.
  return signBody(JSON.stringify(assembleManifest(release, namespace, fixed)), namespace, signer, base);
}

/** Signs the exact text of a part (a manifest or a directive) for one namespace. */
export function signBody(
  body: string,
  namespace: ManifestNamespace,
  signer: ManifestSigner,
  assetBaseUrl: string | null = null,
): ManifestSignature {
  return {
    namespace,
    certificate: signer.identity,
    body,
    signature: signer.signatureHeader(Buffer.from(body, 'utf8')),
    assetBaseUrl,
  };
}

/**
 * The directive parts expo-updates knows (reference/expo-updates-protocol.md §1):
 * `rollBackToEmbedded` with its required `parameters.commitTime`, and `noUpdateAvailable`. Both are
 * signed like manifests, since the client checks the signature of a directive too.
 */
export const rollBackToEmbeddedBody = (commitTime: string): string =>
  JSON.stringify({ type: 'rollBackToEmbedded', parameters: { commitTime } });
export const NO_UPDATE_AVAILABLE_BODY = JSON.stringify({ type: 'noUpdateAvailable' });

/** A directive body signed in every namespace. */
export function signDirective(body: string, signer: ManifestSigner): ManifestSignature[] {
  return MANIFEST_NAMESPACES.map((namespace) => signBody(body, namespace, signer));
}
