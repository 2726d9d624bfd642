import { verify, X509Certificate } from 'node:crypto';
import type { Platform } from '@ferry/contracts';
import { signatureParts } from '../code-signing/certificate-verdict.js';

/** What the manifest endpoint answered a device of this app, as the doctor reports it. */
export type ManifestProbe =
  | { kind: 'update'; id: string; signature: 'verified' | 'not-verified' | 'unsigned' | 'not-checked' }
  | { kind: 'no-update' }
  | { kind: 'directive' }
  | { kind: 'refused'; status: number; message: string }
  | { kind: 'unreachable'; message: string };

export interface ProbeRequest {
  /** The app config's `updates.url`. */
  url: string;
  platform: Platform;
  runtimeVersion: string;
  /** The app config's `updates.requestHeaders` (the channel among them). */
  requestHeaders: Record<string, string>;
  /** The embedded certificate and key id, when the app has them: the signature is checked as a device does. */
  certificatePem?: string;
  keyId?: string;
  fetch?: typeof fetch;
}

/**
 * Asks the app's manifest URL what a release build of this app would ask at start (Expo Updates
 * protocol v1, the headers expo-updates sends, the app's own request headers), in JSON so the
 * signature comes as a response header, and checks the signature with the app's certificate.
 */
export async function probeManifest(request: ProbeRequest): Promise<ManifestProbe> {
  const headers: Record<string, string> = {
    ...request.requestHeaders,
    accept: 'application/expo+json, application/json',
    'expo-protocol-version': '1',
    'expo-platform': request.platform,
    'expo-runtime-version': request.runtimeVersion,
    ...(request.keyId ? { 'expo-expect-signature': `sig, keyid="${request.keyId}", alg="rsa-v1_5-sha256"` } : {}),
  };
  let response: Response;
  try {
    response = await (request.fetch ?? fetch)(request.url, { headers });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return { kind: 'unreachable', message: cause };
  }
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status === 204) return { kind: 'no-update' };
  // A track whose newest entry is a directive (roll back to embedded) answers only multipart.
  if (response.status === 406) return { kind: 'directive' };
  if (response.status !== 200) {
    let message = body.toString('utf8').slice(0, 300);
    try {
      message = (JSON.parse(message) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // not the common error body
    }
    return { kind: 'refused', status: response.status, message };
  }
  let id = '';
  try {
    id = String((JSON.parse(body.toString('utf8')) as { id?: unknown }).id ?? '');
  } catch {
    return { kind: 'refused', status: 200, message: 'the answer is not a JSON manifest' };
  }
  const header = response.headers.get('expo-signature');
  if (!request.certificatePem || !request.keyId) return { kind: 'update', id, signature: 'not-checked' };
  if (!header) return { kind: 'update', id, signature: 'unsigned' };
  const parts = signatureParts(header);
  let verified = false;
  try {
    verified =
      parts?.sig !== undefined &&
      (parts.keyid ?? 'root') === request.keyId &&
      verify('sha256', body, new X509Certificate(request.certificatePem).publicKey, Buffer.from(parts.sig, 'base64'));
  } catch {
    verified = false;
  }
  return { kind: 'update', id, signature: verified ? 'verified' : 'not-verified' };
}
