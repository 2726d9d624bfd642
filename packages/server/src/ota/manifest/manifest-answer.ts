import { type ManifestNamespace, manifestHeaders } from '@ferry/contracts';
import type { ManifestFormat } from './manifest-format.js';
import type { ManifestOutcome } from './manifest-outcome.js';
import type { ManifestAnswer, SignedManifest } from './manifest-response.js';

/** Response headers of every manifest answer, 204 included, per namespace (decisions.md §4). */
const protocolHeaders = (ns: ManifestNamespace): Readonly<Record<string, string>> => ({
  [manifestHeaders(ns).protocolVersion]: '1',
  [manifestHeaders(ns).sfvVersion]: '0',
  'cache-control': 'private, max-age=0',
});
export const PROTOCOL_HEADERS: Readonly<Record<ManifestNamespace, Readonly<Record<string, string>>>> = {
  ota: protocolHeaders('ota'),
  expo: protocolHeaders('expo'),
};
const SIGNATURE_HEADER: Record<ManifestNamespace, string> = {
  ota: manifestHeaders('ota').signature,
  expo: manifestHeaders('expo').signature,
};

export type { ManifestAnswer } from './manifest-response.js';

const NO_UPDATE: Record<ManifestNamespace, ManifestAnswer> = {
  ota: { status: 204, headers: PROTOCOL_HEADERS.ota, body: undefined },
  expo: { status: 204, headers: PROTOCOL_HEADERS.expo, body: undefined },
};

/**
 * The answer to an outcome in the structure the client accepts: multipart/mixed with the
 * signature in the part's headers, or the JSON body with the signature as a response header. The
 * route and the server's fast path (http/fast-path.ts) both answer with it. Undefined when the
 * structure cannot carry the outcome: a directive has no JSON form (the protocol's 406).
 */
export function manifestAnswer(
  outcome: ManifestOutcome,
  format: ManifestFormat,
  ns: ManifestNamespace,
): ManifestAnswer | undefined {
  if (outcome.kind === 'no-update') {
    // Only multipart/mixed carries the directive; the JSON structures keep the 204 the protocol allows.
    return outcome.noUpdateAvailable && format === 'multipart'
      ? signedAnswer(outcome.noUpdateAvailable, format, ns)
      : NO_UPDATE[ns];
  }
  if (outcome.kind === 'directive' && format !== 'multipart') return undefined;
  return signedAnswer(outcome.signed, format, ns);
}

/** Made once per signed part and structure, then reused by every request (the hot path). */
function signedAnswer(signed: SignedManifest, format: ManifestFormat, ns: ManifestNamespace): ManifestAnswer {
  let answer = signed.answers[format];
  if (!answer) {
    answer = answerFor(signed, format, ns);
    signed.answers[format] = answer;
  }
  return answer;
}

function answerFor(signed: SignedManifest, format: ManifestFormat, ns: ManifestNamespace): ManifestAnswer {
  const body = format === 'multipart' ? signed.multipart : signed.json;
  const headers: Record<string, string> =
    format === 'multipart'
      ? { ...PROTOCOL_HEADERS[ns], 'content-type': signed.multipartContentType }
      : {
          ...PROTOCOL_HEADERS[ns],
          'content-type': format === 'expo+json' ? 'application/expo+json' : 'application/json; charset=utf-8',
          [SIGNATURE_HEADER[ns]]: signed.signature,
        };
  headers['content-length'] = String(body.length);
  return { status: 200, headers: format === 'multipart' ? shared(headers) : headers, body };
}

/** Distinct multipart headers kept for sharing; past it, answers keep their own. */
export const SHARED_HEADERS_MAX = 4_096;
const sharedHeaders = new Map<string, Readonly<Record<string, string>>>();

/**
 * One headers object for every multipart answer with the same headers: they differ only in
 * content-length, as every track's body has the process's boundary (boundaryFor). A request
 * spread over 1,000 tracks then writes headers that are already in the CPU's caches; each track
 * with headers of its own was one more set of strings to fetch from memory (bench:manifest (d)).
 */
function shared(headers: Record<string, string>): Readonly<Record<string, string>> {
  const key = JSON.stringify(headers);
  const known = sharedHeaders.get(key);
  if (known) return known;
  if (sharedHeaders.size < SHARED_HEADERS_MAX) sharedHeaders.set(key, headers);
  return headers;
}
