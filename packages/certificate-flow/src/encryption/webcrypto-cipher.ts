import { decodeAesKey } from './aes-key.js';
import { EncryptionError, type IdentityCipher } from './identity-cipher.js';
import { IV_BYTES, joinPayload, splitPayload } from './payload.js';

export interface WebCryptoCipherOptions {
  /** Defaults to globalThis.crypto (browsers, Node 20). */
  crypto?: Crypto;
}

/**
 * The web implementation: WebCrypto's AES-CBC, whose padding is PKCS#7 by definition. The key is
 * imported as non-extractable, so page scripts cannot read it back out of the CryptoKey.
 */
export function createWebCryptoCipher(key: string | Uint8Array, options: WebCryptoCipherOptions = {}): IdentityCipher {
  const webCrypto = options.crypto ?? globalThis.crypto;
  if (!webCrypto?.subtle) throw new EncryptionError('WebCrypto is not available (a secure context is required).');
  const keyBytes = decodeAesKey(key);
  const cryptoKey = webCrypto.subtle.importKey('raw', keyBytes, { name: 'AES-CBC' }, false, ['encrypt', 'decrypt']);

  return {
    async encrypt(plain) {
      const iv = webCrypto.getRandomValues(new Uint8Array(IV_BYTES));
      const ciphertext = await webCrypto.subtle.encrypt(
        { name: 'AES-CBC', iv },
        await cryptoKey,
        new TextEncoder().encode(plain),
      );
      return joinPayload(iv, new Uint8Array(ciphertext));
    },
    async decrypt(payload) {
      const { iv, ciphertext } = splitPayload(payload);
      try {
        const plain = await webCrypto.subtle.decrypt({ name: 'AES-CBC', iv }, await cryptoKey, ciphertext);
        return new TextDecoder('utf-8', { fatal: true }).decode(plain);
      } catch {
        throw new EncryptionError('The payload could not be decrypted with this key.');
      }
    },
  };
}
