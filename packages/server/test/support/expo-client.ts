import { createHash, verify, X509Certificate } from 'node:crypto';
import { isMultipartPartWithName, parseMultipartMixedResponseAsync } from '@expo/multipart-body-parser';
import forge from 'node-forge';
import { parseDictionary } from 'structured-headers';

/**
 * A manifest client that checks what expo-updates checks (reference/expo-updates-protocol.md §2, §4,
 * §5), written against independent parsers: @expo/multipart-body-parser for the body,
 * structured-headers for the signature, node:crypto for RSA. It never uses server code.
 */

export type Namespace = 'ota' | 'expo';

export interface ClientAsset {
  hash: string;
  key: string;
  contentType: string;
  fileExtension: string;
  url: string;
}

export interface ClientManifest {
  id: string;
  createdAt: string;
  runtimeVersion: string;
  launchAsset: ClientAsset;
  assets: ClientAsset[];
  metadata: Record<string, string>;
  extra: Record<string, unknown>;
}

export interface ManifestTrack {
  platform: string;
  runtimeVersion: string;
  channel: string;
  currentUpdateId?: string;
  embeddedUpdateId?: string;
}

/** The headers an expo-updates client (SDK 51+) sends, in the given namespace. */
export function clientHeaders(ns: Namespace, track: ManifestTrack, keyId = 'main'): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'multipart/mixed,application/expo+json,application/json',
    [`${ns}-protocol-version`]: '1',
    [`${ns}-platform`]: track.platform,
    [`${ns}-runtime-version`]: track.runtimeVersion,
    [`${ns}-channel-name`]: track.channel,
    [`${ns}-expect-signature`]: `sig, keyid="${keyId}", alg="rsa-v1_5-sha256"`,
    [`${ns}-api-version`]: '1',
  };
  if (track.currentUpdateId) headers[`${ns}-current-update-id`] = track.currentUpdateId;
  if (track.embeddedUpdateId) headers[`${ns}-embedded-update-id`] = track.embeddedUpdateId;
  return headers;
}

export class ClientRejection extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64URL_SHA256 = /^[A-Za-z0-9_-]{43}$/;
const CODE_SIGNING_EKU = '1.3.6.1.5.5.7.3.3';

/** The embedded certificate must be usable for code signing now, as the client checks before trusting it. */
export function checkCodeSigningCertificate(certificatePem: string): X509Certificate {
  const certificate = new X509Certificate(certificatePem);
  const now = Date.now();
  if (now < Date.parse(certificate.validFrom) || now > Date.parse(certificate.validTo)) {
    throw new ClientRejection('certificate outside its validity window');
  }
  if (!(certificate.keyUsage ?? []).includes(CODE_SIGNING_EKU))
    throw new ClientRejection('certificate lacks codeSigning');
  const ku = forge.pki.certificateFromPem(certificatePem).getExtension('keyUsage') as { digitalSignature?: boolean };
  if (!ku?.digitalSignature) throw new ClientRejection('certificate lacks digitalSignature');
  return certificate;
}

/** Verifies `<ns>-signature` over `body` the way CodeSigningConfiguration.kt does. */
export function verifySignatureHeader(
  header: string | undefined,
  body: Buffer,
  certificatePem: string,
  expectedKeyId: string,
): void {
  if (!header) throw new ClientRejection('no signature header');
  const dictionary = parseDictionary(header);
  const value = (name: string) => {
    const entry = dictionary.get(name);
    return entry ? String(entry[0]) : undefined;
  };
  const sig = value('sig');
  if (!sig) throw new ClientRejection('signature header without sig');
  if ((value('keyid') ?? 'root') !== expectedKeyId) throw new ClientRejection(`keyid ${value('keyid')} not trusted`);
  const alg = value('alg') ?? 'rsa-v1_5-sha256';
  if (alg !== 'rsa-v1_5-sha256') throw new ClientRejection(`unknown alg ${alg}`);
  const certificate = checkCodeSigningCertificate(certificatePem);
  if (!verify('sha256', body, certificate.publicKey, Buffer.from(sig, 'base64'))) {
    throw new ClientRejection('signature does not verify');
  }
}

/** Field checks of UpdateFactory/ExpoUpdatesUpdate: a manifest failing these is not applied. */
export function checkManifestFields(manifest: ClientManifest): void {
  if (!UUID.test(manifest.id)) throw new ClientRejection(`id ${manifest.id} is not a UUID`);
  if (
    Number.isNaN(Date.parse(manifest.createdAt)) ||
    new Date(manifest.createdAt).toISOString() !== manifest.createdAt
  ) {
    throw new ClientRejection(`createdAt ${manifest.createdAt} is not ISO-8601`);
  }
  if (typeof manifest.metadata !== 'object' || manifest.metadata === null) throw new ClientRejection('no metadata');
  for (const value of Object.values(manifest.metadata)) {
    if (typeof value !== 'string') throw new ClientRejection('metadata values must be strings');
  }
  for (const asset of [manifest.launchAsset, ...manifest.assets]) {
    if (!BASE64URL_SHA256.test(asset.hash)) throw new ClientRejection(`hash ${asset.hash} is not unpadded base64url`);
    if (!asset.key || !asset.url || !asset.contentType) throw new ClientRejection('asset without key, url or type');
    if (!/^\.[A-Za-z0-9]+$/.test(asset.fileExtension)) throw new ClientRejection('fileExtension without a dot');
  }
}

export type ManifestResult =
  /** 204, or 200 with a signed `noUpdateAvailable` directive part (protocol 1). */
  | { kind: 'no-update'; status: 204 | 200; headers: Headers }
  | { kind: 'update'; manifest: ClientManifest; headers: Headers; partHeaders: Map<string, string | string[]> }
  /** A signed `rollBackToEmbedded` directive part with its required commitTime. */
  | {
      kind: 'roll-back-to-embedded';
      commitTime: string;
      headers: Headers;
      partHeaders: Map<string, string | string[]>;
    };

/** GET the manifest, then do everything the client does before it downloads assets. */
export async function fetchManifestLikeExpo(
  baseUrl: string,
  ns: Namespace,
  track: ManifestTrack,
  trust: { certificatePem: string; keyId: string },
): Promise<ManifestResult> {
  const response = await fetch(`${baseUrl}/api/updates/manifest`, { headers: clientHeaders(ns, track, trust.keyId) });
  const body = Buffer.from(await response.arrayBuffer());
  return checkManifestLikeExpo(ns, { status: response.status, headers: response.headers, body }, trust);
}

/** Everything the client does with a manifest response it received, before it downloads assets. */
export async function checkManifestLikeExpo(
  ns: Namespace,
  response: { status: number; headers: Headers; body: Buffer },
  trust: { certificatePem: string; keyId: string },
): Promise<ManifestResult> {
  const { body } = response;
  if (response.headers.get(`${ns}-protocol-version`) !== '1') throw new ClientRejection('protocol version is not 1');
  if (response.status === 204) {
    if (body.length !== 0) throw new ClientRejection('204 with a body');
    return { kind: 'no-update', status: 204, headers: response.headers };
  }
  if (response.status !== 200) throw new ClientRejection(`status ${response.status}: ${body.toString('utf8')}`);
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.startsWith('multipart/mixed')) throw new ClientRejection(`unexpected content type ${contentType}`);
  const parts = await parseMultipartMixedResponseAsync(contentType, body);
  const manifestPart = parts.find((part) => isMultipartPartWithName(part, 'manifest'));
  const directivePart = parts.find((part) => isMultipartPartWithName(part, 'directive'));
  if (!manifestPart && directivePart) {
    // Directives are signed and checked like manifests (CodeSigningConfiguration), then parsed by
    // UpdateDirective.fromJSONString: an unknown type throws, rollBackToEmbedded needs commitTime.
    const directiveSignature = directivePart.headers.get(`${ns}-signature`);
    verifySignatureHeader(
      Array.isArray(directiveSignature) ? directiveSignature[0] : directiveSignature,
      Buffer.from(directivePart.body, 'utf8'),
      trust.certificatePem,
      trust.keyId,
    );
    const directive = JSON.parse(directivePart.body) as { type?: string; parameters?: { commitTime?: string } };
    if (directive.type === 'noUpdateAvailable') return { kind: 'no-update', status: 200, headers: response.headers };
    if (directive.type !== 'rollBackToEmbedded') throw new ClientRejection(`unknown directive type ${directive.type}`);
    const commitTime = directive.parameters?.commitTime;
    if (typeof commitTime !== 'string' || Number.isNaN(Date.parse(commitTime))) {
      throw new ClientRejection('rollBackToEmbedded without a valid parameters.commitTime');
    }
    return { kind: 'roll-back-to-embedded', commitTime, headers: response.headers, partHeaders: directivePart.headers };
  }
  if (!manifestPart) throw new ClientRejection('no manifest part');
  const signature = manifestPart.headers.get(`${ns}-signature`);
  verifySignatureHeader(
    Array.isArray(signature) ? signature[0] : signature,
    Buffer.from(manifestPart.body, 'utf8'),
    trust.certificatePem,
    trust.keyId,
  );
  const manifest = JSON.parse(manifestPart.body) as ClientManifest;
  checkManifestFields(manifest);
  return { kind: 'update', manifest, headers: response.headers, partHeaders: manifestPart.headers };
}

export const sha256Base64Url = (body: Buffer) => createHash('sha256').update(body).digest('base64url');

/** Downloads an asset as the client does (any encoding) and checks its hash; returns the bytes. */
export async function downloadAndVerify(asset: ClientAsset): Promise<{ body: Buffer; response: Response }> {
  const response = await fetch(asset.url, { headers: { accept: '*/*', 'accept-encoding': 'br, gzip' } });
  if (!response.ok) throw new ClientRejection(`asset ${asset.url} answered ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  if (sha256Base64Url(body) !== asset.hash) throw new ClientRejection(`asset ${asset.url} does not match its hash`);
  return { body, response };
}
