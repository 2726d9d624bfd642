import { CertificateApiError } from '@ferry/certificate-flow';

/**
 * The host app (a WebView or the portal that embeds this page) provides the certified user's
 * token by defining `window.ferryHost.getUserToken` before the page loads.
 */
export interface FerryHost {
  getUserToken(): string | Promise<string>;
}

declare global {
  interface Window {
    ferryHost?: FerryHost;
  }
}

/**
 * Where the user token comes from: the host app in production; without a host, the development
 * sign-in route, which exists only when the server is not in production.
 */
export function createUserTokenSource(apiBaseUrl: string): () => Promise<string> {
  let development: Promise<string> | undefined;

  const signInForDevelopment = async (): Promise<string> => {
    const response = await fetch(`${apiBaseUrl}/dev/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }).catch(() => undefined);
    const body: unknown = response?.ok ? await response.json().catch(() => undefined) : undefined;
    const token = (body as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string') {
      throw new CertificateApiError(401, 'UNAUTHORIZED', 'No host app provided a user token.');
    }
    return token;
  };

  return async () => {
    if (window.ferryHost) return window.ferryHost.getUserToken();
    development ??= signInForDevelopment().catch((error: unknown) => {
      development = undefined;
      throw error;
    });
    return development;
  };
}
