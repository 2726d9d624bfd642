import { randomBytes } from 'node:crypto';
import { type ManifestNamespace, manifestHeaders } from '@ferry/contracts';
import type { ManifestSignature } from './release-signatures.js';

/** The multipart part a signed body travels in: a release's manifest, or a directive. */
export type SignedPart = 'manifest' | 'directive';

/**
 * A release's manifest (or a directive), signed once and kept as bytes: the JSON body with its
 * signature, and the whole multipart/mixed body that carries it. Serving it is a buffer write, no
 * signing or hashing.
 */
export interface SignedManifest {
  /** The release's id, or the directive's. */
  releaseId: string;
  part: SignedPart;
  namespace: ManifestNamespace;
  /** The manifest JSON exactly as signed. */
  json: Buffer;
  /** The `<ns>-signature` header value over `json`. */
  signature: string;
  multipart: Buffer;
  multipartContentType: string;
}

const CRLF = '\r\n';

/** A multipart/mixed body with one `manifest` (or `directive`) part whose bytes are exactly `json`. */
export function encodeManifestMultipart(
  json: Buffer,
  signatureHeaderName: string,
  signature: string,
  boundary: string,
  part: SignedPart = 'manifest',
): { body: Buffer; contentType: string } {
  const head =
    `--${boundary}${CRLF}` +
    `content-type: application/json; charset=utf-8${CRLF}` +
    `content-disposition: inline; name="${part}"${CRLF}` +
    `${signatureHeaderName}: ${signature}${CRLF}${CRLF}`;
  const tail = `${CRLF}--${boundary}--${CRLF}`;
  return {
    body: Buffer.concat([Buffer.from(head, 'utf8'), json, Buffer.from(tail, 'utf8')]),
    contentType: `multipart/mixed; boundary=${boundary}`,
  };
}

/**
 * The boundary of every multipart answer this process makes, unless it occurs in a part. It is random per process, so no publisher can aim a manifest at it.
 */
const PROCESS_BOUNDARY = `ferry-${randomBytes(12).toString('hex')}`;

/** A boundary that does not occur in the part it delimits (RFC 2046 §5.1.1). */
function boundaryFor(json: Buffer): string {
  if (!json.includes(PROCESS_BOUNDARY)) return PROCESS_BOUNDARY;
  for (;;) {
    const boundary = `ferry-${randomBytes(12).toString('hex')}`;
    if (!json.includes(boundary)) return boundary;
  }
}

/** The bytes a device receives for a stored signature; only the multipart boundary is made here. */
export function signedManifestOf(
  releaseId: string,
  stored: ManifestSignature,
  part: SignedPart = 'manifest',
): SignedManifest {
  const json = Buffer.from(stored.body, 'utf8');
  const { body, contentType } = encodeManifestMultipart(
    json,
    manifestHeaders(stored.namespace).signature,
    stored.signature,
    boundaryFor(json),
    part,
  );
  return {
    releaseId,
    part,
    namespace: stored.namespace,
    json,
    signature: stored.signature,
    multipart: body,
    multipartContentType: contentType,
  };
}
