import { CertificateApiError } from '@ferry/certificate-flow';

/** What the page needs before the funnel can start. */
export interface WebConfig {
  apiBaseUrl: string;
  /** Base64 of the shared AES-256 key; public by design, different per environment. */
  certAesKey: string;
}

/** The page has no key to encrypt with: a deployment's mistake, not the device's nor the connection's. */
export class WebConfigError extends Error {
  override name = 'WebConfigError';
}

/**
 * The key is a build-time variable (VITE_CERT_AES_KEY). A build without it (the one `npm ci`
 * makes) asks the development server for its generated key; that route does not exist in
 * production, so a production build must carry the key.
 */
export async function loadWebConfig(): Promise<WebConfig> {
  const apiBaseUrl = (import.meta.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, '');
  const builtKey = import.meta.env.VITE_CERT_AES_KEY;
  if (builtKey) return { apiBaseUrl, certAesKey: builtKey };

  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl}/dev/web-config`, { headers: { accept: 'application/json' } });
  } catch {
    throw new CertificateApiError(0, 'NETWORK_ERROR', 'The development server could not be reached.');
  }
  const body: unknown = response.ok ? await response.json().catch(() => undefined) : undefined;
  const certAesKey = (body as { certAesKey?: unknown } | undefined)?.certAesKey;
  if (typeof certAesKey !== 'string') {
    throw new WebConfigError('This build has no encryption key and no development server provides one.');
  }
  return { apiBaseUrl, certAesKey };
}
