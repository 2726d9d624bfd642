import { MANIFEST_NAMESPACES, type ManifestNamespace, manifestHeaders } from '@ferry/contracts';

/**
 * What a request header does to a manifest answer:
 * - `track`: names the track; the answers are looked up by these (trackKey);
 * - `selects`: picks one of the track's answers (the update the device runs, the response
 *   structure, the rollout bucket);
 * - `refuses`: can only turn the request into a refusal;
 * - `reports`: feeds device reports and never changes the answer.
 */
export type HeaderRole = 'track' | 'selects' | 'refuses' | 'reports';

/** The namespaced request fields (`<ns>-…` headers, named by the contracts' manifestHeaders). */
export const MANIFEST_FIELDS = {
  protocolVersion: 'refuses',
  platform: 'track',
  runtimeVersion: 'track',
  channel: 'track',
  currentUpdateId: 'selects',
  embeddedUpdateId: 'selects',
} as const satisfies Partial<Record<keyof ReturnType<typeof manifestHeaders>, HeaderRole>>;
export type ManifestField = keyof typeof MANIFEST_FIELDS;
export const FIELDS = Object.keys(MANIFEST_FIELDS) as ManifestField[];

/** The headers outside the namespaces. */
const SHARED_HEADERS = {
  accept: 'selects',
  'eas-client-id': 'selects',
  'expo-recent-failed-update-ids': 'reports',
  'expo-fatal-error': 'reports',
} as const satisfies Record<string, HeaderRole>;
export type SharedHeader = keyof typeof SHARED_HEADERS;

/**
 * Every request header the manifest endpoint reads, with its role: the one table. Picking the
 * headers, the request's fields, the warm-up's requests and the OpenAPI description all read it,
 * and a test varies each header to check that only `track` and `selects` headers change an answer.
 */
export const MANIFEST_REQUEST_HEADERS: ReadonlyArray<{ name: string; role: HeaderRole }> = [
  ...Object.entries(SHARED_HEADERS).map(([name, role]) => ({ name, role })),
  ...MANIFEST_NAMESPACES.flatMap((ns) =>
    FIELDS.map((field) => ({ name: manifestHeaders(ns)[field], role: MANIFEST_FIELDS[field] as HeaderRole })),
  ),
];
const NAMES = new Set(MANIFEST_REQUEST_HEADERS.map((header) => header.name));

/** The table's headers in one request, by lowercase name; repeated headers joined with ", " as Node joins them. */
export type PickedHeaders = ReadonlyMap<string, string>;

/**
 * The table's headers out of Node's `rawHeaders` (name, value, …), never `request.headers`: that
 * object is built on first use from every header the client sent.
 */
export function pickHeaders(rawHeaders: readonly string[]): PickedHeaders {
  const picked = new Map<string, string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!NAMES.has(name)) continue;
    const prior = picked.get(name);
    picked.set(name, prior === undefined ? rawHeaders[i + 1]! : `${prior}, ${rawHeaders[i + 1]}`);
  }
  return picked;
}

/** The request headers of a namespace for a track and the update ids, as a client sends them. */
export function requestHeaders(
  ns: ManifestNamespace,
  values: Partial<Record<ManifestField, string>>,
): Record<string, string> {
  const names = manifestHeaders(ns);
  return Object.fromEntries(
    FIELDS.filter((field) => values[field] !== undefined).map((field) => [names[field], values[field]!]),
  );
}

/** The headers of one role, as the OpenAPI description lists them (`<ns>` for either namespace). */
export function headersOfRole(role: HeaderRole): string[] {
  const names = manifestHeaders('<ns>' as ManifestNamespace);
  return [
    ...FIELDS.filter((field) => MANIFEST_FIELDS[field] === role).map((field) => names[field]),
    ...Object.keys(SHARED_HEADERS).filter((name) => SHARED_HEADERS[name as SharedHeader] === role),
  ].map((name) => `\`${name}\``);
}
