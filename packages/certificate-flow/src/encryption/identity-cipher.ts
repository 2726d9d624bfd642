/**
 * The spec's certificate encryption: AES-256-CBC with PKCS#7 padding, a fresh random 16-byte IV on
 * every call, output Base64(IV ‖ ciphertext). Web and native implement this one interface, so their
 * outputs are interchangeable and the server decrypts either.
 */
export interface IdentityCipher {
  /** Encrypts UTF-8 text; two calls with the same text give different outputs (new IV each time). */
  encrypt(plain: string): Promise<string>;
  /** The inverse of encrypt. Clients never need it; it exists so interop can be proven in both directions. */
  decrypt(payload: string): Promise<string>;
}

/** A source of cryptographically secure random bytes; native apps inject expo-crypto's or similar. */
export type RandomBytes = (length: number) => Uint8Array;

export class EncryptionError extends Error {
  override name = 'EncryptionError';
}
