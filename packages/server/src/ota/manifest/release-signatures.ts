import { MANIFEST_NAMESPACES, type ManifestNamespace, type Release } from '@ferry/contracts';
import type { ManifestSigner } from '../../signing/manifest-signer.js';
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
}

/**
 * Signs a release's manifest in every header namespace. Publish and rollback call it inside the
 * track lock, so each release is signed once, before any device can ask for it.
 */
export function signRelease(release: Release, signer: ManifestSigner): ManifestSignature[] {
  return MANIFEST_NAMESPACES.map((namespace) => signNamespace(release, namespace, signer));
}

export function signNamespace(
  release: Release,
  namespace: ManifestNamespace,
  signer: ManifestSigner,
): ManifestSignature {
  // JSON.stringify escapes lone surrogates, so the text survives UTF-8 and the database unchanged.
  const body = JSON.stringify(assembleManifest(release, namespace));
  return {
    namespace,
    certificate: signer.identity,
    body,
    signature: signer.signatureHeader(Buffer.from(body, 'utf8')),
  };
}
