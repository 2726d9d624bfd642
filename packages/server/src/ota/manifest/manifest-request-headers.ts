/**
 * The request headers the manifest endpoint reads, picked out of Node's `rawHeaders` in one pass.
 *
 * `request.headers` is built on first use: every header name lowercased into a new string and
 * added to a new object, whose shape differs with each client's set of headers. On a server that
 * has seen many such sets (devices with and without EAS-Client-ID, an update id, failed ids), that
 * cost more than the rest of the manifest answer; bare node:http, which never reads a header, does
 * none of it. This reads only the names below and gives every request an object of one shape.
 * Repeated headers are joined with ", ", as Node joins these names.
 */
const NAMES = [
  'accept',
  'eas-client-id',
  'expo-recent-failed-update-ids',
  'expo-fatal-error',
  'expo-protocol-version',
  'expo-platform',
  'expo-runtime-version',
  'expo-channel-name',
  'expo-current-update-id',
  'expo-embedded-update-id',
  'ota-protocol-version',
  'ota-platform',
  'ota-runtime-version',
  'ota-channel-name',
  'ota-current-update-id',
  'ota-embedded-update-id',
] as const;

export type ManifestRequestHeaderName = (typeof NAMES)[number];
/** What the manifest endpoint reads; `request.headers` (IncomingHttpHeaders) is one too. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;
export type ManifestRequestHeaders = { readonly [name in ManifestRequestHeaderName]: string | undefined };

/**
 * NAMES by length, each with its slot. A name is found by its length and then one or two string
 * comparisons, never by a Map: every request's header names are new strings, and a Map lookup
 * hashes each of them first.
 */
const BY_LENGTH: Array<Array<readonly [string, number]> | undefined> = [];
NAMES.forEach((name, slot) => {
  const sameLength = BY_LENGTH[name.length] ?? [];
  sameLength.push([name, slot]);
  BY_LENGTH[name.length] = sameLength;
});

/** The slot of a header name in NAMES, or -1. */
function slotOf(name: string): number {
  const candidates = BY_LENGTH[name.length];
  if (candidates === undefined) return -1;
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!;
    if (candidate[0] === name) return candidate[1];
  }
  // Clients send lowercase names (expo-updates does); any other spelling pays a lowercase.
  const lower = name.toLowerCase();
  return lower === name ? -1 : slotOf(lower);
}

/** Picks NAMES out of `rawHeaders` (name, value, name, value, …; names as the client spelled them). */
export function manifestRequestHeaders(rawHeaders: readonly string[]): ManifestRequestHeaders {
  const values: Array<string | undefined> = new Array(NAMES.length);
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const slot = slotOf(rawHeaders[i] as string);
    if (slot < 0) continue;
    const value = rawHeaders[i + 1] as string;
    const prior = values[slot];
    values[slot] = prior === undefined ? value : `${prior}, ${value}`;
  }
  // One literal, so every request's object has the same shape (and the same hidden class).
  return {
    accept: values[0],
    'eas-client-id': values[1],
    'expo-recent-failed-update-ids': values[2],
    'expo-fatal-error': values[3],
    'expo-protocol-version': values[4],
    'expo-platform': values[5],
    'expo-runtime-version': values[6],
    'expo-channel-name': values[7],
    'expo-current-update-id': values[8],
    'expo-embedded-update-id': values[9],
    'ota-protocol-version': values[10],
    'ota-platform': values[11],
    'ota-runtime-version': values[12],
    'ota-channel-name': values[13],
    'ota-current-update-id': values[14],
    'ota-embedded-update-id': values[15],
  };
}
