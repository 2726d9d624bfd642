import {
  DEFAULT_APP,
  type KnownErrorCode,
  MANIFEST_PROTOCOL_VERSION,
  type ManifestNamespace,
  ManifestRequest,
  manifestHeaders,
} from '@ferry/contracts';
import Negotiator from 'negotiator';
import { z } from 'zod';
import type { ManifestFormat } from './manifest-format.js';
import { FIELDS, type PickedHeaders } from './manifest-headers.js';
import { trackKey } from './track-key.js';

export type { ManifestFormat } from './manifest-format.js';

const MEDIA_TYPES: Record<string, ManifestFormat> = {
  'multipart/mixed': 'multipart',
  'application/expo+json': 'expo+json',
  'application/json': 'json',
};
/** In order of preference when the client likes several equally (and for a missing accept header). */
const AVAILABLE = Object.keys(MEDIA_TYPES);

/** The q-value of the most specific range matching a media type (RFC 9110 §12.5.1), 0 when none does. */
function qualityOf(accept: string, mediaType: string): number {
  const anySubtype = `${mediaType.split('/')[0]}/*`;
  let specificity = -1;
  let q = 0;
  for (const range of accept.split(',')) {
    const [name, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const rank = name === mediaType ? 2 : name === anySubtype ? 1 : name === '*/*' ? 0 : -1;
    if (rank < 0 || rank < specificity) continue;
    const value = Number(params.find((param) => param.startsWith('q='))?.slice(2) ?? 1);
    specificity = rank;
    q = Number.isFinite(value) ? value : 0;
  }
  return q;
}

/**
 * The response structure an accept header picks: the client's preference (Negotiator, q-values
 * first), except that among structures it likes equally multipart wins, since only multipart can
 * carry a directive. The spec's own client sends `application/expo+json, application/json,
 * multipart/mixed` at one weight: JSON for it would turn a pending roll back to embedded into 406.
 */
function pickFormat(accept: string): ManifestFormat | undefined {
  const ranked = new Negotiator({ headers: { accept } }).mediaTypes(AVAILABLE);
  const [best] = ranked;
  if (best === undefined) return undefined;
  const multipart = ranked.find((type) => MEDIA_TYPES[type.toLowerCase()] === 'multipart');
  if (multipart !== undefined && qualityOf(accept, multipart) >= qualityOf(accept, best)) return 'multipart';
  return MEDIA_TYPES[best.toLowerCase()];
}

/**
 * Formats by accept header. A fleet sends a handful of accept values, and negotiating costs more
 * than the rest of a cached answer; the map is emptied when full, so ever-new values cost a
 * negotiation each and never memory. Keyed by the whole input of a pure function.
 */
const FORMATS_KEPT = 1_000;
const ACCEPT_KEPT_MAX_LENGTH = 1024;
const formats = new Map<string, ManifestFormat | null>();

/** The response structure the accept header allows, or undefined when it allows none (406). */
export function negotiateManifestFormat(accept: string | undefined): ManifestFormat | undefined {
  const key = accept ?? '*/*';
  let format = formats.get(key);
  if (format === undefined) {
    format = pickFormat(key) ?? null;
    if (formats.size >= FORMATS_KEPT) formats.clear();
    if (key.length <= ACCEPT_KEPT_MAX_LENGTH) formats.set(key, format);
  }
  return format ?? undefined;
}

/** expo-updates' per-install id; bounded, since only its hash is kept and it picks a rollout bucket. */
const CLIENT_ID_MAX_LENGTH = 256;

/**
 * The device's stable per-install id (`EAS-Client-ID`), or undefined when it sends none (or one
 * that is empty or too long to be one). It never reaches a log or the database as sent.
 */
export function clientIdOf(picked: PickedHeaders): string | undefined {
  const id = picked.get('eas-client-id');
  return id !== undefined && id.length > 0 && id.length <= CLIENT_ID_MAX_LENGTH ? id : undefined;
}

const NAMES = { ota: manifestHeaders('ota'), expo: manifestHeaders('expo') } as const;

/** How many of a namespace's manifest headers a request sent. */
function sent(picked: PickedHeaders, ns: ManifestNamespace): number {
  return FIELDS.reduce((count, field) => count + Number(picked.has(NAMES[ns][field])), 0);
}

/**
 * The namespace a request is read in: the one most of its manifest headers use. A real
 * expo-updates client sends `expo-…`; the spec's client sends `ota-…`.
 */
export function namespaceOf(picked: PickedHeaders): ManifestNamespace {
  return sent(picked, 'expo') > sent(picked, 'ota') ? 'expo' : 'ota';
}

/**
 * The namespace a refused request is answered in: the client's own. expo-updates always sends
 * `expo-…` headers and the spec's client only `ota-…` ones, so any `expo-…` manifest header marks an
 * expo-updates client, even one that also sent `ota-…` ones: telling it to send `ota-platform` would
 * send its team the wrong way.
 */
export function refusalNamespaceOf(picked: PickedHeaders): ManifestNamespace {
  return sent(picked, 'expo') > 0 ? 'expo' : 'ota';
}

/** A manifest request that passed validation, with its track if the lookup found it. */
export interface ValidManifestRequest<T = unknown> {
  ok: true;
  ns: ManifestNamespace;
  /** The app whose updates URL it asked (apps.md): its track is the app's. */
  app: string;
  request: ManifestRequest;
  /** Its install id (clientIdOf), which picks its rollout bucket. */
  clientId: string | undefined;
  found: T | undefined;
}

export interface RefusedManifestRequest {
  ok: false;
  ns: ManifestNamespace;
  status: 400 | 406;
  code: KnownErrorCode;
  message: string;
  details: Record<string, unknown>;
}

/** An update id header as validation reads it: trimmed, and absent when blank. */
function optional(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The update id rule of ManifestRequest, for the shortcut below. */
const isUpdateIdOrAbsent = (id: string | undefined) => id === undefined || z.regexes.guid.test(id);

/**
 * Reads and validates the manifest request headers of either namespace. A refusal names the
 * headers of the client's own namespace (refusalNamespaceOf): a request read as `ota-…` that also
 * carries `expo-…` headers is refused as its `expo-…` headers read.
 *
 * `lookup` finds a track in memory by its key (the manifest cache). A key it finds was made from a
 * validated request or a stored release, so a request whose key it finds has valid track headers
 * and only the rest is checked; any other request is parsed with ManifestRequest. Both give the
 * same result (manifest-request.test.ts).
 */
export function parseManifestRequest<T>(
  picked: PickedHeaders,
  app: string = DEFAULT_APP,
  lookup: (key: string) => T | undefined = () => undefined,
): ValidManifestRequest<T> | RefusedManifestRequest {
  const ns = namespaceOf(picked);
  const parsed = parseIn(picked, ns, app, lookup);
  return parsed.ok || refusalNamespaceOf(picked) === ns ? parsed : parseIn(picked, 'expo', app, lookup);
}

function parseIn<T>(
  picked: PickedHeaders,
  ns: ManifestNamespace,
  app: string,
  lookup: (key: string) => T | undefined,
): ValidManifestRequest<T> | RefusedManifestRequest {
  const names = NAMES[ns];
  const protocolVersion = picked.get(names.protocolVersion);
  if (protocolVersion !== undefined && protocolVersion.trim() !== MANIFEST_PROTOCOL_VERSION) {
    const message = `Only protocol version ${MANIFEST_PROTOCOL_VERSION} is served (${names.protocolVersion}).`;
    const details = { header: names.protocolVersion, supported: [MANIFEST_PROTOCOL_VERSION] };
    return { ok: false, ns, status: 406, code: 'NOT_ACCEPTABLE', message, details };
  }
  // Platform and channel names are lowercase everywhere (releases, tracks); clients may send any
  // case (`IOS`, `Production`).
  const fields = {
    platform: picked.get(names.platform)?.toLowerCase(),
    runtimeVersion: picked.get(names.runtimeVersion),
    channel: picked.get(names.channel)?.toLowerCase(),
    currentUpdateId: optional(picked.get(names.currentUpdateId)),
    embeddedUpdateId: optional(picked.get(names.embeddedUpdateId)),
  };
  const found = lookup(trackKey({ app, ...(fields as ManifestRequest) }));
  const clientId = clientIdOf(picked);
  if (found !== undefined && isUpdateIdOrAbsent(fields.currentUpdateId) && isUpdateIdOrAbsent(fields.embeddedUpdateId))
    return { ok: true, ns, app, request: fields as ManifestRequest, clientId, found };
  const parsed = ManifestRequest.safeParse(fields);
  if (parsed.success) return { ok: true, ns, app, request: parsed.data, clientId, found };
  return {
    ok: false,
    ns,
    status: 400,
    code: 'VALIDATION_FAILED',
    message: `The manifest request needs valid ${names.platform}, ${names.runtimeVersion} and ${names.channel} headers; see details.fields.`,
    details: {
      // Every issue of an object schema names its field.
      fields: parsed.error.issues.map((issue) => ({
        path: `headers.${names[issue.path[0] as keyof typeof fields]}`,
        message: issue.message,
      })),
    },
  };
}
