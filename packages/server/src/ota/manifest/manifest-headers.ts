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
const FIELDS = Object.keys(MANIFEST_FIELDS) as ManifestField[];

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
/**
 * The names as V8 keeps property names: one flat, internalized copy each. The names are made by
 * templates (manifestHeaders), which leaves them as concatenations that every comparison with a
 * header from the wire would walk.
 */
const NAMES = MANIFEST_REQUEST_HEADERS.map((header) => Object.keys({ [header.name]: 0 })[0]!);

/** A header's place in PickedHeaders. */
function slotOfName(name: string): number {
  return NAMES.indexOf(name);
}

/**
 * The places of the shared headers, and of each namespace's fields. Object literals, read by
 * property names written out (`picked[SHARED_SLOT.accept]`): a read through a name held in a
 * variable is a keyed load that sees every name, which the hot path avoids.
 */
export const SHARED_SLOT = {
  accept: slotOfName('accept'),
  'eas-client-id': slotOfName('eas-client-id'),
  'expo-recent-failed-update-ids': slotOfName('expo-recent-failed-update-ids'),
  'expo-fatal-error': slotOfName('expo-fatal-error'),
} as const satisfies Record<SharedHeader, number>;

function fieldSlots(ns: ManifestNamespace) {
  const names = manifestHeaders(ns);
  return {
    protocolVersion: slotOfName(names.protocolVersion),
    platform: slotOfName(names.platform),
    runtimeVersion: slotOfName(names.runtimeVersion),
    channel: slotOfName(names.channel),
    currentUpdateId: slotOfName(names.currentUpdateId),
    embeddedUpdateId: slotOfName(names.embeddedUpdateId),
  } as const satisfies Record<ManifestField, number>;
}
export const FIELD_SLOTS = { ota: fieldSlots('ota'), expo: fieldSlots('expo') } as const;

/** The values of MANIFEST_REQUEST_HEADERS in one request, in the table's order; repeats joined with ", ". */
export type PickedHeaders = ReadonlyArray<string | undefined>;

export function sharedHeader(picked: PickedHeaders, name: SharedHeader): string | undefined {
  return picked[SHARED_SLOT[name]];
}
export function fieldHeader(picked: PickedHeaders, ns: ManifestNamespace, field: ManifestField): string | undefined {
  return picked[FIELD_SLOTS[ns][field]];
}

/**
 * The table's names grouped by length: a name from the wire is found by its length and one or two
 * string comparisons. Every request's header names are new strings, which a Map would hash first.
 */
const BY_LENGTH: Array<Array<readonly [string, number]> | undefined> = [];
NAMES.forEach((name, slot) => {
  const sameLength = BY_LENGTH[name.length] ?? [];
  sameLength.push([name, slot]);
  BY_LENGTH[name.length] = sameLength;
});

function slotOf(name: string): number {
  const candidates = BY_LENGTH[name.length];
  if (candidates === undefined) return -1;
  for (let i = 0; i < candidates.length; i++) if (candidates[i]![0] === name) return candidates[i]![1];
  // Clients send lowercase names (expo-updates does); any other spelling pays a lowercase.
  const lower = name.toLowerCase();
  return lower === name ? -1 : slotOf(lower);
}

/**
 * The table's headers out of Node's `rawHeaders` (name, value, …), never `request.headers`: that
 * object is built on first use from every header the client sent, each name lowercased into a new
 * string, which costs more than the rest of a cached answer.
 */
export function pickHeaders(rawHeaders: readonly string[]): PickedHeaders {
  const values: Array<string | undefined> = new Array(NAMES.length);
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const slot = slotOf(rawHeaders[i]!);
    if (slot < 0) continue;
    const prior = values[slot];
    values[slot] = prior === undefined ? rawHeaders[i + 1] : `${prior}, ${rawHeaders[i + 1]}`;
  }
  return values;
}

/** The same from a headers object (Fastify's `request.headers`), for the route. */
export function pickHeadersOf(headers: Readonly<Record<string, string | string[] | undefined>>): PickedHeaders {
  return NAMES.map((name) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  });
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
  const shared = Object.entries(SHARED_HEADERS)
    .filter(([, r]) => r === role)
    .map(([name]) => `\`${name}\``);
  // Any namespace's names, with `<ns>` for the namespace.
  const names = manifestHeaders('<ns>' as ManifestNamespace);
  const namespaced = FIELDS.filter((field) => MANIFEST_FIELDS[field] === role).map((field) => `\`${names[field]}\``);
  return [...namespaced, ...shared];
}
