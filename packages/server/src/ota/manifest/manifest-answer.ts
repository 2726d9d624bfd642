import { MANIFEST_NAMESPACES, type ManifestNamespace, manifestHeaders } from '@ferry/contracts';
import type { ManifestFormat } from './manifest-format.js';
import type { SignedManifest } from './manifest-response.js';

export type ManifestOutcomeLabel = 'update' | 'no-update' | 'directive' | 'rollout-fallback';

/**
 * One answer to a manifest request, made when its track is loaded or published and written as is:
 * status, headers (the protocol's included) and body, with the outcome as the metrics count it.
 */
export interface ManifestAnswer {
  status: 200 | 204;
  headers: Readonly<Record<string, string>>;
  body: Buffer | undefined;
  label: ManifestOutcomeLabel;
  /** The track has no release at all (counted per runtime version: "my update never arrives"). */
  noRelease: boolean;
}

/** The answers of one outcome per namespace and response structure; undefined where the structure cannot carry it (a directive in JSON: 406). */
export type ManifestAnswers = Readonly<
  Record<ManifestNamespace, Readonly<Record<ManifestFormat, ManifestAnswer | undefined>>>
>;

const FORMATS: readonly ManifestFormat[] = ['multipart', 'expo+json', 'json'];

/** Response headers of every manifest answer, 204 included, per namespace. */
export const PROTOCOL_HEADERS: Readonly<Record<ManifestNamespace, Readonly<Record<string, string>>>> = {
  ota: protocolHeaders('ota'),
  expo: protocolHeaders('expo'),
};
function protocolHeaders(ns: ManifestNamespace): Readonly<Record<string, string>> {
  return {
    [manifestHeaders(ns).protocolVersion]: '1',
    [manifestHeaders(ns).sfvVersion]: '0',
    'cache-control': 'private, max-age=0',
  };
}

function answersOf(
  make: (ns: ManifestNamespace, format: ManifestFormat) => ManifestAnswer | undefined,
): ManifestAnswers {
  return Object.fromEntries(
    MANIFEST_NAMESPACES.map((ns) => [ns, Object.fromEntries(FORMATS.map((format) => [format, make(ns, format)]))]),
  ) as ManifestAnswers;
}

function noContent(ns: ManifestNamespace, noRelease: boolean): ManifestAnswer {
  return { status: 204, headers: PROTOCOL_HEADERS[ns], body: undefined, label: 'no-update', noRelease };
}

/**
 * A signed manifest or directive in the structure the client accepts: multipart/mixed with the
 * signature in the part's headers, or the JSON body with the signature as a response header.
 */
function signedAnswer(signed: SignedManifest, format: ManifestFormat, label: ManifestOutcomeLabel): ManifestAnswer {
  const ns = signed.namespace;
  const body = format === 'multipart' ? signed.multipart : signed.json;
  const contentType =
    format === 'multipart'
      ? signed.multipartContentType
      : format === 'expo+json'
        ? 'application/expo+json'
        : 'application/json; charset=utf-8';
  const headers: Record<string, string> = { ...PROTOCOL_HEADERS[ns], 'content-type': contentType };
  if (format !== 'multipart') headers[manifestHeaders(ns).signature] = signed.signature;
  headers['content-length'] = String(body.length);
  return { status: 200, headers, body, label, noRelease: false };
}

/**
 * The answers that serve a release or a directive signed in every namespace. Only multipart/mixed
 * carries a directive.
 */
export function entryAnswers(
  signed: Readonly<Record<ManifestNamespace, SignedManifest>>,
  kind: 'release' | 'directive',
  fallback: boolean,
): ManifestAnswers {
  const label = fallback ? 'rollout-fallback' : kind === 'release' ? 'update' : 'directive';
  return answersOf((ns, format) =>
    kind === 'directive' && format !== 'multipart' ? undefined : signedAnswer(signed[ns], format, label),
  );
}

/**
 * What a device that runs what it would get is answered: the spec's own client (ota-…) 204, as its
 * table says; expo-updates the protocol's signed noUpdateAvailable directive when it accepts
 * multipart, else 204.
 */
export function upToDateAnswers(noUpdateAvailable: SignedManifest): ManifestAnswers {
  return answersOf((ns, format) =>
    ns === 'expo' && format === 'multipart'
      ? signedAnswer(noUpdateAvailable, format, 'no-update')
      : noContent(ns, false),
  );
}

/** A track with no release at all. */
export const NO_RELEASE: ManifestAnswers = answersOf((ns) => noContent(ns, true));
/** A device the rollout of a track's only release does not reach: nothing for it, but not "no release". */
export const OUTSIDE_ROLLOUT: ManifestAnswers = answersOf((ns) => noContent(ns, false));
