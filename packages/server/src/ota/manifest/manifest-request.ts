import type { IncomingHttpHeaders } from 'node:http';
import { MANIFEST_PROTOCOL_VERSION, type ManifestNamespace, ManifestRequest, manifestHeaders } from '@ferry/contracts';
import Negotiator from 'negotiator';

export type ManifestFormat = 'multipart' | 'expo+json' | 'json';

const MEDIA_TYPES: Record<string, ManifestFormat> = {
  'multipart/mixed': 'multipart',
  'application/expo+json': 'expo+json',
  'application/json': 'json',
};
/** In order of preference when the client likes several equally (and for a missing accept header). */
const AVAILABLE = Object.keys(MEDIA_TYPES);

/** The response structure the accept header allows, or undefined when it allows none (406). */
export function negotiateManifestFormat(accept: string | undefined): ManifestFormat | undefined {
  const [best] = new Negotiator({ headers: { accept: accept ?? '*/*' } }).mediaTypes(AVAILABLE);
  return best === undefined ? undefined : MEDIA_TYPES[best.toLowerCase()];
}

const headerValue = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * The namespace the request speaks: the one most of its manifest headers use. A real expo-updates
 * client sends `expo-…`; the spec's client sends `ota-…`; with neither, errors name `ota-…`.
 */
export function namespaceOf(headers: IncomingHttpHeaders): ManifestNamespace {
  const count = (ns: ManifestNamespace) => {
    const names = manifestHeaders(ns);
    return [names.platform, names.runtimeVersion, names.channel].filter((n) => headers[n] !== undefined).length;
  };
  return count('expo') > count('ota') ? 'expo' : 'ota';
}

export type ParsedManifestRequest =
  | { ok: true; ns: ManifestNamespace; request: ManifestRequest }
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

/** Reads and validates the manifest request headers of either namespace. */
export function parseManifestRequest(headers: IncomingHttpHeaders): ParsedManifestRequest {
  const ns = namespaceOf(headers);
  const names = manifestHeaders(ns);
  const protocolVersion = headerValue(headers, names.protocolVersion);
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
  const optional = (name: string) => {
    const value = headerValue(headers, name)?.trim();
    return value === '' ? undefined : value;
  };
  const parsed = ManifestRequest.safeParse({
    platform: headerValue(headers, names.platform),
    runtimeVersion: headerValue(headers, names.runtimeVersion),
    channel: headerValue(headers, names.channel),
    currentUpdateId: optional(names.currentUpdateId),
    embeddedUpdateId: optional(names.embeddedUpdateId),
  });
  if (parsed.success) return { ok: true, ns, request: parsed.data };
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
