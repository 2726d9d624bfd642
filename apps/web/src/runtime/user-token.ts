import { CertificateApiError } from '@ferry/certificate-flow';

import './host.js';

/**
 * Where the user token comes from: the host app in production; without a host, the development
 * sign-in route, which exists only when the server is not in production.
 */
export function createUserTokenSource(apiBaseUrl: string): () => Promise<string> {
  let development: Promise<string> | undefined;

  const signInForDevelopment = async (): Promise<string> => {
    let response: Response;
    try {
      response = await fetch(`${apiBaseUrl}/dev/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    } catch {
      // No answer at all: the connection, which the person can fix, not a missing sign-in.
      throw new CertificateApiError(0, 'NETWORK_ERROR', 'The development sign-in could not be reached.');
    }
    const body: unknown = response.ok ? await response.json().catch(() => undefined) : undefined;
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
