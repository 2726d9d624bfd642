import type { CertificateServerOptions } from '@ferry/expo/certificates';
import { getRandomBytes } from 'expo-crypto';

/**
 * The certificate funnel's server for this app. Expo inlines EXPO_PUBLIC_* variables at build time:
 * EXPO_PUBLIC_FERRY_API_URL (the Ferry server), EXPO_PUBLIC_CERT_AES_KEY (Base64 of the environment's
 * 32-byte key; EXPO_PUBLIC_CERT_AES_KEY_NATIVE overrides it for native builds).
 */
const API_URL = process.env.EXPO_PUBLIC_FERRY_API_URL ?? 'http://localhost:3000';

/**
 * The signed-in member's token. A real app returns its own session's token here; this example uses
 * the server's development sign-in, which exists only on a non-production server.
 */
let developmentToken: Promise<string> | undefined;
async function getToken(): Promise<string> {
  developmentToken ??= fetch(`${API_URL}/dev/sign-in`, { method: 'POST' })
    .then((response) => response.json() as Promise<{ token: string }>)
    .then((body) => body.token)
    .catch((error: unknown) => {
      developmentToken = undefined;
      throw error;
    });
  return developmentToken;
}

export const certificateServer: CertificateServerOptions = {
  url: API_URL,
  getToken,
  // Without a key the app still starts; the funnel then shows "secure entry unavailable" and sends
  // nothing (the cipher is made on first use). certificateAesKey() is the strict alternative.
  aesKey: process.env.EXPO_PUBLIC_CERT_AES_KEY_NATIVE || process.env.EXPO_PUBLIC_CERT_AES_KEY || '',
  // Hermes has no WebCrypto: expo-crypto is the secure random source for the IVs.
  randomBytes: getRandomBytes,
};
