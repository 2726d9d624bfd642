import { randomBytes } from 'node:crypto';
import { type ManifestNamespace, manifestHeaders } from '@ferry/contracts';
import type { ManifestSignature } from './release-signatures.js';

/**
 * A release's manifest, signed once at publish and kept as bytes: the JSON body with its signature,
 * and the whole multipart/mixed body that carries it. Serving it is a buffer write, no signing or hashing.
 */
export interface SignedManifest {
  releaseId: string;
  namespace: ManifestNamespace;
  /** The manifest JSON exactly as signed. */
  json: Buffer;
  /** The `<ns>-signature` header value over `json`. */
  signature: string;
  multipart: Buffer;
  multipartContentType: string;
}

const CRLF = '\r\n';

/** A multipart/mixed body with one `manifest` part whose bytes are exactly `json`. */
export function encodeManifestMultipart(
  json: Buffer,
  signatureHeaderName: string,
  signature: string,
  boundary: string,
): { body: Buffer; contentType: string } {
  const head =
    `--${boundary}${CRLF}` +
    `content-type: application/json; charset=utf-8${CRLF}` +
    `content-disposition: inline; name="manifest"${CRLF}` +
    `${signatureHeaderName}: ${signature}${CRLF}${CRLF}`;
  const tail = `${CRLF}--${boundary}--${CRLF}`;
  return {
    body: Buffer.concat([Buffer.from(head, 'utf8'), json, Buffer.from(tail, 'utf8')]),
    contentType: `multipart/mixed; boundary=${boundary}`,
  };
}

/** A boundary that does not occur in the part it delimits (RFC 2046 §5.1.1). */
function boundaryFor(json: Buffer): string {
  for (;;) {
    const boundary = `ferry-${randomBytes(12).toString('hex')}`;
    if (!json.includes(boundary)) return boundary;
  }
}

/** The bytes a device receives for a stored signature; only the multipart boundary is made here. */
export function signedManifestOf(releaseId: string, stored: ManifestSignature): SignedManifest {
  const json = Buffer.from(stored.body, 'utf8');
  const { body, contentType } = encodeManifestMultipart(
    json,
    manifestHeaders(stored.namespace).signature,
    stored.signature,
    boundaryFor(json),
  );
  return {
    releaseId,
    namespace: stored.namespace,
    json,
    signature: stored.signature,
    multipart: body,
    multipartContentType: contentType,
  };
}
