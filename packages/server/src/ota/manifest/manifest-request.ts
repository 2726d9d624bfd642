import {
  type KnownErrorCode,
  MANIFEST_PROTOCOL_VERSION,
  type ManifestNamespace,
  ManifestRequest,
  manifestHeaders,
} from '@ferry/contracts';
import Negotiator from 'negotiator';
import { z } from 'zod';
import type { ManifestFormat } from './manifest-format.js';
import { FIELD_SLOTS, type PickedHeaders, SHARED_SLOT } from './manifest-headers.js';
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
 * The q-value an accept header gives a media type: that of the most specific range matching it
 * (RFC 9110 §12.5.1), 0 when none does. Only what the tie below needs: Negotiator ranks, this
 * compares two of its picks.
 */
function qualityOf(accept: string, mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  let best = { specificity: -1, q: 0 };
  for (const range of accept.split(',')) {
    const [name, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const [rangeType, rangeSubtype] = name!.split('/');
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
  const id = picked[SHARED_SLOT['eas-client-id']];
  return id !== undefined && id.length > 0 && id.length <= CLIENT_ID_MAX_LENGTH ? id : undefined;
}

/**
 * The namespace a request is read in: the one most of its track headers use. A real expo-updates
 * client sends `expo-…`; the spec's client sends `ota-…`.
 */
export function namespaceOf(picked: PickedHeaders): ManifestNamespace {
  return trackHeadersSent(picked, FIELD_SLOTS.expo) > trackHeadersSent(picked, FIELD_SLOTS.ota) ? 'expo' : 'ota';
}

type FieldSlots = (typeof FIELD_SLOTS)[ManifestNamespace];

function trackHeadersSent(picked: PickedHeaders, slots: FieldSlots): number {
  return (
    Number(picked[slots.platform] !== undefined) +
    Number(picked[slots.runtimeVersion] !== undefined) +
    Number(picked[slots.channel] !== undefined)
  );
}

/**
 * The namespace a refused request is answered in: the client's own. expo-updates always sends
 * `expo-…` headers and the spec's client only `ota-…` ones, so any `expo-…` manifest header marks an
 * expo-updates client, even one that also sent `ota-…` ones: telling it to send `ota-platform` would
 * send its team the wrong way.
 */
export function refusalNamespaceOf(picked: PickedHeaders): ManifestNamespace {
  const expo = FIELD_SLOTS.expo;
  const sentExpo =
    trackHeadersSent(picked, expo) > 0 ||
    picked[expo.protocolVersion] !== undefined ||
    picked[expo.currentUpdateId] !== undefined ||
    picked[expo.embeddedUpdateId] !== undefined;
  return sentExpo ? 'expo' : 'ota';
}

/** A manifest request that passed validation, with its track if the lookup found it. */
export interface ValidManifestRequest<T = unknown> {
  ok: true;
  ns: ManifestNamespace;
  request: ManifestRequest;
  /** The request's track as the manifest cache keys it. */
  trackKey: string;
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

/** The request's fields in one namespace, normalised as validation reads them. */
function fieldsOf(picked: PickedHeaders, ns: ManifestNamespace) {
  // Platform and channel names are lowercase everywhere (releases, tracks); clients may send any
  // case (`IOS`, `Production`).
  const slots = FIELD_SLOTS[ns];
  return {
    platform: picked[slots.platform]?.toLowerCase(),
    runtimeVersion: picked[slots.runtimeVersion],
    channel: picked[slots.channel]?.toLowerCase(),
    currentUpdateId: optional(picked[slots.currentUpdateId]),
    embeddedUpdateId: optional(picked[slots.embeddedUpdateId]),
  };
}

const HEADER_NAMES = { ota: manifestHeaders('ota'), expo: manifestHeaders('expo') } as const;

/** The update id rule of ManifestRequest, for the shortcut below. */
const UPDATE_ID = z.regexes.guid;
function isUpdateIdOrAbsent(id: string | undefined): boolean {
  return id === undefined || UPDATE_ID.test(id);
}

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
  lookup: (key: string) => T | undefined = () => undefined,
): ValidManifestRequest<T> | RefusedManifestRequest {
  const ns = namespaceOf(picked);
  const parsed = parseIn(picked, ns, lookup);
  return parsed.ok || refusalNamespaceOf(picked) === ns ? parsed : parseIn(picked, 'expo', lookup);
}

function parseIn<T>(
  picked: PickedHeaders,
  ns: ManifestNamespace,
  lookup: (key: string) => T | undefined,
): ValidManifestRequest<T> | RefusedManifestRequest {
  const protocolVersion = picked[FIELD_SLOTS[ns].protocolVersion];
  const names = HEADER_NAMES[ns];
  if (protocolVersion !== undefined && protocolVersion.trim() !== MANIFEST_PROTOCOL_VERSION) {
    return {
      ok: false,
      ns,
      status: 406,
      code: 'NOT_ACCEPTABLE',
      message: `Only protocol version ${MANIFEST_PROTOCOL_VERSION} is served (${names.protocolVersion}).`,
      details: { header: names.protocolVersion, supported: [MANIFEST_PROTOCOL_VERSION] },
    };
  }
  const fields = fieldsOf(picked, ns);
  const key = trackKey(fields as ManifestRequest);
  const found = lookup(key);
  if (
    found !== undefined &&
    isUpdateIdOrAbsent(fields.currentUpdateId) &&
    isUpdateIdOrAbsent(fields.embeddedUpdateId)
  ) {
    return valid(picked, ns, fields as ManifestRequest, key, found);
  }
  const parsed = ManifestRequest.safeParse(fields);
  if (parsed.success) return valid(picked, ns, parsed.data, key, found);
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

function valid<T>(
  picked: PickedHeaders,
  ns: ManifestNamespace,
  request: ManifestRequest,
  key: string,
  found: T | undefined,
) {
  return { ok: true, ns, request, trackKey: key, clientId: clientIdOf(picked), found } as const;
}
