import {
  CHANNELS,
  MANIFEST_PROTOCOL_VERSION,
  type ManifestNamespace,
  ManifestRequest,
  manifestHeaders,
  PLATFORMS,
} from '@ferry/contracts';
import Negotiator from 'negotiator';
import { LastKeyMap } from '../../last-key-map.js';
import type { ManifestFormat } from './manifest-format.js';
import type { RequestHeaders } from './manifest-request-headers.js';
import { RememberedRequest } from './remembered-request.js';
import { trackKey } from './track-key.js';

export type { ManifestFormat } from './manifest-format.js';

const MEDIA_TYPES: Record<string, ManifestFormat> = {
  'multipart/mixed': 'multipart',
  'application/expo+json': 'expo+json',
  'application/json': 'json',
};
/** In order of preference when the client likes several equally (and for a missing accept header). */
const AVAILABLE = Object.keys(MEDIA_TYPES);

/**
 * Both functions below run on every manifest request, and clients of one app send the same few
 * header values again and again: their results are remembered (bounded), so the hot path does a
 * map lookup instead of parsing. Accept headers are a handful; request headers are one set per
 * track and current update, so their memo is as large as the manifest cache's 10 000 tracks twice
 * over: a fleet of 1 000 tracks emptied a smaller one every few hundred requests (bench:manifest).
 */
const FORMAT_MEMO_SIZE = 1_000;
export const REQUEST_MEMO_SIZE = 20_000;
// Stryker disable next-line StringLiteral: any marker that is not a format behaves the same, '' included.
const NOT_ACCEPTABLE = 'none';

/**
 * A map emptied when full: cheaper per lookup than an LRU (this is the hot path), and a client
 * sending ever-new values only costs a re-parse, never unbounded memory.
 */
class Memo<V> {
  private readonly map = new LastKeyMap<string, V>();
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    return this.map.get(key);
  }
  set(key: string, value: V): void {
    if (this.map.size >= this.size) this.map.clear();
    this.map.set(key, value);
  }
}

const formats = new Memo<ManifestFormat | typeof NOT_ACCEPTABLE>(FORMAT_MEMO_SIZE);

/**
 * The q-value an accept header gives a media type: that of the most specific range matching it
 * (RFC 9110 §12.5.1), 0 when none does. Only what the tie below needs: Negotiator ranks, this
 * compares two of its picks.
 */
function qualityOf(accept: string, mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  let best = { specificity: -1, q: 0 };
  for (const range of accept.split(',')) {
    const [name = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const [rangeType, rangeSubtype] = name.split('/');
    const specificity =
      rangeType === type && rangeSubtype === subtype
        ? 2
        : rangeType === type && rangeSubtype === '*'
          ? 1
          : rangeType === '*' && rangeSubtype === '*'
            ? 0
            : -1;
    if (specificity < best.specificity || specificity === -1) continue;
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    best = { specificity, q: Number.isFinite(q) ? q : 0 };
  }
  return best.q;
}

/**
 * The response structure an accept header picks: the client's preference (Negotiator, q-values
 * first), except that among structures it likes equally multipart wins, since only multipart can
 * carry a directive. The spec's own client sends `application/expo+json, application/json,
 * multipart/mixed` at one weight: JSON for it would turn a pending roll back to embedded into 406.
 */
function pickFormat(accept: string): ManifestFormat | typeof NOT_ACCEPTABLE {
  const ranked = new Negotiator({ headers: { accept } }).mediaTypes(AVAILABLE);
  const [best] = ranked;
  if (best === undefined) return NOT_ACCEPTABLE;
  const multipart = ranked.find((type) => MEDIA_TYPES[type.toLowerCase()] === 'multipart');
  if (multipart !== undefined && qualityOf(accept, multipart) >= qualityOf(accept, best)) return 'multipart';
  return MEDIA_TYPES[best.toLowerCase()] ?? NOT_ACCEPTABLE;
}

/** The response structure the accept header allows, or undefined when it allows none (406). */
export function negotiateManifestFormat(accept: string | undefined): ManifestFormat | undefined {
  const key = accept ?? '*/*';
  let format = formats.get(key);
  if (format === undefined) {
    format = pickFormat(key);
    if (key.length <= 1024) formats.set(key, format);
  }
  return format === NOT_ACCEPTABLE ? undefined : format;
}

/** expo-updates' per-install id; bounded, since only its hash is kept and it picks a rollout bucket. */
const CLIENT_ID_MAX_LENGTH = 256;

/**
 * The device's stable per-install id (`EAS-Client-ID`), or undefined when it sends none (or one
 * that is empty or too long to be one). It never reaches a log or the database as sent.
 */
export function clientIdOf(headers: RequestHeaders): string | undefined {
  const value = headers['eas-client-id'];
  const id = Array.isArray(value) ? value[0] : value;
  return id !== undefined && id.length > 0 && id.length <= CLIENT_ID_MAX_LENGTH ? id : undefined;
}

const joined = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(', ') : value;

/**
 * The namespace a request is read in: the one most of its track headers use. A real expo-updates
 * client sends `expo-…`; the spec's client sends `ota-…`. A refusal may name the other one
 * (refusalNamespaceOf); with neither, it names `ota-…`.
 */
export function namespaceOf(headers: RequestHeaders): ManifestNamespace {
  // Names written out, as in RAW_REQUEST below: each read is then a load of one known property.
  const expo =
    Number(headers['expo-platform'] !== undefined) +
    Number(headers['expo-runtime-version'] !== undefined) +
    Number(headers['expo-channel-name'] !== undefined);
  const ota =
    Number(headers['ota-platform'] !== undefined) +
    Number(headers['ota-runtime-version'] !== undefined) +
    Number(headers['ota-channel-name'] !== undefined);
  return expo > ota ? 'expo' : 'ota';
}

const HEADERS = { ota: manifestHeaders('ota'), expo: manifestHeaders('expo') } as const;

/** Whether the request carries any `expo-…` manifest header; the names are written out, as below. */
function sentExpoHeader(headers: RequestHeaders): boolean {
  return (
    headers['expo-protocol-version'] !== undefined ||
    headers['expo-platform'] !== undefined ||
    headers['expo-runtime-version'] !== undefined ||
    headers['expo-channel-name'] !== undefined ||
    headers['expo-current-update-id'] !== undefined ||
    headers['expo-embedded-update-id'] !== undefined
  );
}

/**
 * The namespace a refused request is answered in, given the one it was read in: the client's own.
 * expo-updates always sends `expo-…` headers and the spec's client only `ota-…` ones, so any
 * `expo-…` manifest header marks an expo-updates client, even when it sent as many `ota-…` ones
 * (say, a channel header copied from the spec): telling it to send `ota-platform` would send its
 * team the wrong way. Only a request with no `expo-…` header at all is told the spec's names.
 */
export function refusalNamespaceOf(headers: RequestHeaders, read: ManifestNamespace): ManifestNamespace {
  return read === 'expo' || sentExpoHeader(headers) ? 'expo' : 'ota';
}

/**
 * The request's manifest headers in one namespace. The names are written out (a test checks them
 * against the contracts' manifestHeaders): read through a name held in a variable, every read was
 * a keyed load that had seen a dozen names (megamorphic), six times per request.
 */
const RAW_REQUEST: Record<ManifestNamespace, (headers: RequestHeaders) => RawRequest> = {
  expo: (headers) => ({
    protocolVersion: joined(headers['expo-protocol-version']),
    platform: joined(headers['expo-platform']),
    runtimeVersion: joined(headers['expo-runtime-version']),
    channel: joined(headers['expo-channel-name']),
    currentUpdateId: joined(headers['expo-current-update-id']),
    embeddedUpdateId: joined(headers['expo-embedded-update-id']),
  }),
  ota: (headers) => ({
    protocolVersion: joined(headers['ota-protocol-version']),
    platform: joined(headers['ota-platform']),
    runtimeVersion: joined(headers['ota-runtime-version']),
    channel: joined(headers['ota-channel-name']),
    currentUpdateId: joined(headers['ota-current-update-id']),
    embeddedUpdateId: joined(headers['ota-embedded-update-id']),
  }),
};

/** A manifest request that passed validation, as remembered for every device that sends its headers. */
export type ValidManifestRequest = RememberedRequest;

export type ParsedManifestRequest =
  | ValidManifestRequest
  | {
      ok: false;
      ns: ManifestNamespace;
      status: 400 | 406;
      code: string;
      message: string;
      details: Record<string, unknown>;
    };

const FIELD_HEADER = {
  platform: 'platform',
  runtimeVersion: 'runtimeVersion',
  channel: 'channel',
  currentUpdateId: 'currentUpdateId',
  embeddedUpdateId: 'embeddedUpdateId',
} as const;

/**
 * The memo of parsed requests: one map per header, in a fixed order, so a lookup compares or hashes
 * each header value once and builds no key string. A joined key (seven parts per request) cost
 * more than the rest of the parse (bench:manifest). Absent headers are the key `undefined`, a
 * Map's own key.
 *
 * The runtime version, the header that tells a fleet's tracks apart, is the last level: the levels
 * before it are then shared by every track and stay in the CPU's caches, and one lookup in the
 * last map reaches the parsed request. With it in the middle, each track had three levels of its
 * own, three objects to fetch from memory one after the other (bench:manifest, 1,000 tracks).
 *
 * The shared levels compare a value with the last one they found (LastKeyMap): every request of a
 * fleet sends the same protocol version, platform and channel. The last level is a plain Map:
 * requests spread over many tracks never find the last runtime version again, and there the
 * comparison, and keeping each request's new string as the last one, cost more than the hash it
 * saves (side by side, 1,000 tracks against one: 0.86 instead of 0.82, docs/benchmarks.md).
 */
type RuntimeVersions = Map<string | undefined, ParsedManifestRequest>;
type RequestMemoLevel = LastKeyMap<string | undefined, RequestMemoLevel | RuntimeVersions>;

class RequestMemo {
  private readonly roots: Record<ManifestNamespace, RequestMemoLevel> = {
    ota: new LastKeyMap(),
    expo: new LastKeyMap(),
  };
  private count = 0;
  /**
   * The remembered requests it holds, let go when it empties: each may hold its track's cache slot,
   * which lists it (TrackSlot.holders), so one forgotten here but still held would stay in memory
   * until the slot drops, one per distinct set of headers a device ever sent. Released, what the
   * slots list stays within this memo's bound, whatever the devices send.
   */
  private remembered: RememberedRequest[] = [];
  constructor(private readonly size: number) {}

  get(ns: ManifestNamespace, values: RawRequest): ParsedManifestRequest | undefined {
    const level = this.roots[ns].get(values.protocolVersion) as RequestMemoLevel | undefined;
    const platform = level?.get(values.platform) as RequestMemoLevel | undefined;
    const channel = platform?.get(values.channel) as RequestMemoLevel | undefined;
    const current = channel?.get(values.currentUpdateId) as RequestMemoLevel | undefined;
    const runtimeVersions = current?.get(values.embeddedUpdateId) as RuntimeVersions | undefined;
    return runtimeVersions?.get(values.runtimeVersion);
  }

  set(ns: ManifestNamespace, values: RawRequest, parsed: ParsedManifestRequest): void {
    if (this.count >= this.size) {
      this.roots.ota.clear();
      this.roots.expo.clear();
      this.count = 0;
      const forgotten = this.remembered;
      this.remembered = [];
      for (const request of forgotten) request.release();
    }
    let level = this.roots[ns];
    for (const value of [values.protocolVersion, values.platform, values.channel, values.currentUpdateId]) {
      let next = level.get(value) as RequestMemoLevel | undefined;
      if (!next) {
        next = new LastKeyMap();
        level.set(value, next);
      }
      level = next;
    }
    let runtimeVersions = level.get(values.embeddedUpdateId) as RuntimeVersions | undefined;
    if (!runtimeVersions) {
      runtimeVersions = new Map();
      level.set(values.embeddedUpdateId, runtimeVersions);
    }
    if (!runtimeVersions.has(values.runtimeVersion)) this.count++;
    runtimeVersions.set(values.runtimeVersion, parsed);
    if (parsed.ok) this.remembered.push(parsed);
  }
}

type RawRequest = Record<keyof typeof FIELD_HEADER | 'protocolVersion', string | undefined>;

/** Characters of header values a remembered request may hold; longer ones are parsed every time. */
const REQUEST_MEMO_MAX_CHARS = 2048;

const rawLength = (raw: RawRequest): number =>
  (raw.protocolVersion?.length ?? 0) +
  (raw.platform?.length ?? 0) +
  (raw.runtimeVersion?.length ?? 0) +
  (raw.channel?.length ?? 0) +
  (raw.currentUpdateId?.length ?? 0) +
  (raw.embeddedUpdateId?.length ?? 0);

const parsedRequests = new RequestMemo(REQUEST_MEMO_SIZE);

/**
 * Reads and validates the manifest request headers of either namespace. A refusal names the
 * headers of the client's own namespace (refusalNamespaceOf): a request read as `ota-…` that also
 * carries `expo-…` headers is refused in `expo-…` names. That case is judged after the memo, which
 * is keyed by one namespace's values only, and costs nothing on a valid request.
 */
export function parseManifestRequest(headers: RequestHeaders): ParsedManifestRequest {
  const ns = namespaceOf(headers);
  const raw = RAW_REQUEST[ns](headers);
  let parsed = parsedRequests.get(ns, raw);
  if (!parsed) {
    parsed = validate(ns, raw);
    if (rawLength(raw) <= REQUEST_MEMO_MAX_CHARS) parsedRequests.set(ns, raw, parsed);
  }
  if (!parsed.ok && refusalNamespaceOf(headers, ns) !== ns) return validate('expo', RAW_REQUEST.expo(headers));
  return parsed;
}

/**
 * A platform or channel name as the contracts' own literal when it is one (the only names that
 * validate), so every remembered request shares one string per name: requests spread over 1,000
 * tracks then read names already in the CPU's caches, not a copy per track.
 */
const literal = (known: readonly string[], name: string | undefined): string | undefined =>
  known.find((candidate) => candidate === name) ?? name;

function validate(ns: ManifestNamespace, raw: RawRequest): ParsedManifestRequest {
  const names = HEADERS[ns];
  if (raw.protocolVersion !== undefined && raw.protocolVersion.trim() !== MANIFEST_PROTOCOL_VERSION) {
    return {
      ok: false,
      ns,
      status: 406,
      code: 'NOT_ACCEPTABLE',
      message: `Only protocol version ${MANIFEST_PROTOCOL_VERSION} is served (${names.protocolVersion}).`,
      details: { header: names.protocolVersion, supported: [MANIFEST_PROTOCOL_VERSION] },
    };
  }
  const optional = (value: string | undefined) => {
    const trimmed = value?.trim();
    return trimmed === '' ? undefined : trimmed;
  };
  // Platform and channel names are lowercase everywhere (releases, tracks); clients may send any
  // case (`IOS`, `Production`). The memo is keyed by the raw values, so each spelling is its own
  // entry and every entry holds the normalised request.
  const parsed = ManifestRequest.safeParse({
    platform: literal(PLATFORMS, raw.platform?.toLowerCase()),
    runtimeVersion: raw.runtimeVersion,
    channel: literal(CHANNELS, raw.channel?.toLowerCase()),
    currentUpdateId: optional(raw.currentUpdateId),
    embeddedUpdateId: optional(raw.embeddedUpdateId),
  });
  if (parsed.success) {
    return new RememberedRequest(ns, parsed.data, trackKey(parsed.data));
  }
  const fields = parsed.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? '') as keyof typeof FIELD_HEADER;
    const header = FIELD_HEADER[field] ? names[FIELD_HEADER[field]] : 'headers';
    return { path: `headers.${header}`, message: issue.message };
  });
  return {
    ok: false,
    ns,
    status: 400,
    code: 'VALIDATION_FAILED',
    message: `The manifest request needs valid ${names.platform}, ${names.runtimeVersion} and ${names.channel} headers; see details.fields.`,
    details: { fields },
  };
}
