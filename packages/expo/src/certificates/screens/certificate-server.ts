import { createCertificateApi, type FunnelDependencies, type RandomBytes } from '@ferry/certificate-flow';
import { useMemo, useRef } from 'react';
import { createNativeIdentityCipher } from '../native-identity-cipher.js';

/** Where the funnel's calls go, when the app does not build the API client and cipher itself. */
export interface CertificateServerOptions {
  /** Origin of the Ferry server, e.g. https://api.example.com. */
  url: string;
  /** The certified user's token; asked for on every call, so the app can refresh it. */
  getToken(): string | Promise<string>;
  /** Base64 of the 32-byte certificate AES key (EXPO_PUBLIC_CERT_AES_KEY, see certificateAesKey). */
  aesKey: string | Uint8Array;
  /** A secure random source for the IVs, e.g. expo-crypto's getRandomBytes (Hermes has no WebCrypto). */
  randomBytes?: RandomBytes;
  fetch?: typeof globalThis.fetch;
}

/** Either the server's address and key, or the API client and cipher the app already made. */
export type CertificateServer = CertificateServerOptions | FunnelDependencies;

const isDependencies = (server: CertificateServer): server is FunnelDependencies =>
  'api' in server && 'cipher' in server;

/**
 * The funnel's dependencies for a `server` prop. They stay the same object across renders even when
 * the app passes an inline object: a new one is made only when the address or the key changes, and
 * the callbacks are read from the latest props when they are called.
 */
export function useCertificateDependencies(server: CertificateServer): FunnelDependencies {
  const latest = useRef(server);
  latest.current = server;
  const options = isDependencies(server) ? null : server;
  const directApi = isDependencies(server) ? server.api : null;
  const directCipher = isDependencies(server) ? server.cipher : null;
  const url = options?.url;
  const aesKey = options?.aesKey;
  const hasRandomBytes = Boolean(options?.randomBytes);
  return useMemo(() => {
    if (directApi && directCipher) return { api: directApi, cipher: directCipher };
    const current = () => latest.current as CertificateServerOptions;
    return {
      api: createCertificateApi({
        baseUrl: url ?? '',
        getToken: () => current().getToken(),
        fetch: (input, init) => (current().fetch ?? globalThis.fetch)(input, init),
      }),
      // Without a random source the cipher uses WebCrypto where it exists (react-native-web, a
      // polyfill); where none exists encryption fails and the funnel shows "secure entry unavailable".
      cipher: createNativeIdentityCipher(
        hasRandomBytes
          ? { key: aesKey ?? '', randomBytes: (length) => (current().randomBytes as RandomBytes)(length) }
          : { key: aesKey ?? '' },
      ),
    };
  }, [directApi, directCipher, url, aesKey, hasRandomBytes]);
}
