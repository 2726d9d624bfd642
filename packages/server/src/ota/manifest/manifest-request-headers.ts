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

const SLOT = new Map<string, number>(NAMES.map((name, slot) => [name, slot]));

/** Picks NAMES out of `rawHeaders` (name, value, name, value, …; names as the client spelled them). */
export function manifestRequestHeaders(rawHeaders: readonly string[]): ManifestRequestHeaders {
  const values: Array<string | undefined> = new Array(NAMES.length);
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    let slot = SLOT.get(name);
    if (slot === undefined) {
      // Clients send lowercase names (expo-updates does); any other spelling pays a lowercase.
      const lower = name.toLowerCase();
      if (lower === name) continue;
      slot = SLOT.get(lower);
      if (slot === undefined) continue;
    }
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
