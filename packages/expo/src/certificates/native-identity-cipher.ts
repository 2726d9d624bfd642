import { createPureJsCipher, type IdentityCipher, type RandomBytes } from '@ferry/certificate-flow';

export interface NativeIdentityCipherOptions {
  /** Base64 of the 32-byte certificate AES key (the build's public variable, see docs/app-sdk.md). */
  key: string | Uint8Array;
  /**
   * A secure random source for the IVs, e.g. expo-crypto's `getRandomBytes`. Hermes has no WebCrypto,
   * so without it the cipher uses `globalThis.crypto.getRandomValues` when a polyfill installed one.
   */
  randomBytes?: RandomBytes;
}

/**
 * The web funnel's pure-JS AES-256-CBC cipher, created on first use: a bad key or a missing random
 * source then fails the encrypt step (the funnel's "secure entry unavailable" alert) instead of
 * crashing the screen while it renders.
 */
export function createNativeIdentityCipher(options: NativeIdentityCipherOptions): IdentityCipher {
  let cipher: IdentityCipher | undefined;
  const get = (): IdentityCipher => {
    cipher ??= createPureJsCipher(options.key, options.randomBytes ? { randomBytes: options.randomBytes } : {});
    return cipher;
  };
  return {
    encrypt: async (plain) => get().encrypt(plain),
    decrypt: async (payload) => get().decrypt(payload),
  };
}

/** Picks the native override key when the build sets one, else the shared per-environment key. */
export function certificateAesKey(keys: { nativeOverride?: string | null; shared?: string | null }): string {
  const key = keys.nativeOverride || keys.shared;
  if (!key) throw new Error('No certificate AES key: set EXPO_PUBLIC_CERT_AES_KEY (or the native override).');
  return key;
}
