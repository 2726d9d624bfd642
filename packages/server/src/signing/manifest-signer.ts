import { createHash, type KeyObject, sign } from 'node:crypto';
import { serializeDictionary } from 'structured-headers';

/** The only algorithm the Expo Updates code-signing spec defines. */
export const SIGNATURE_ALGORITHM = 'rsa-v1_5-sha256';

/**
 * Signs the exact bytes of a manifest (or directive) part. The app verifies them with the
 * certificate embedded in its build, so the bytes signed must be the bytes sent.
 */
export interface ManifestSigner {
  readonly keyId: string;
  /** The PEM certificate the apps embed; tests and operators use it to verify. */
  readonly certificatePem: string;
  /**
   * Names the certificate and key id together: a signature kept from earlier (a stored manifest)
   * is valid for this signer only if it was made under the same identity.
   */
  readonly identity: string;
  /** Standard base64 RSASSA-PKCS1-v1_5 SHA-256 signature over `bytes`. */
  sign(bytes: Buffer): string;
  /** The `<ns>-signature` header value: an RFC 8941 dictionary `sig="…", keyid="…", alg="…"`. */
  signatureHeader(bytes: Buffer): string;
}

/** ManifestSigner on node:crypto: the key is parsed once, signing is one native call. */
export class NodeManifestSigner implements ManifestSigner {
  readonly identity: string;

  constructor(
    private readonly privateKey: KeyObject,
    readonly certificatePem: string,
    readonly keyId: string,
  ) {
    this.identity = createHash('sha256').update(`${keyId}\n${certificatePem}`).digest('base64url');
  }

  sign(bytes: Buffer): string {
    // For an RSA key node:crypto signs with PKCS#1 v1.5 padding unless told otherwise.
    return sign('sha256', bytes, this.privateKey).toString('base64');
  }

  signatureHeader(bytes: Buffer): string {
    return serializeDictionary({ sig: this.sign(bytes), keyid: this.keyId, alg: SIGNATURE_ALGORITHM });
  }
}
