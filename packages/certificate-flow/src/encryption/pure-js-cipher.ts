import { cbc } from '@noble/ciphers/aes.js';
import { bytesToUtf8, utf8ToBytes } from '@noble/ciphers/utils.js';
import { decodeAesKey } from './aes-key.js';
import { EncryptionError, type IdentityCipher, type RandomBytes } from './identity-cipher.js';
import { IV_BYTES, joinPayload, splitPayload } from './payload.js';

export interface PureJsCipherOptions {
  /**
   * Where IVs come from. React Native has no WebCrypto by default, so the app passes a secure source
   * (expo-crypto's getRandomBytes, react-native-get-random-values); tests pass a fixed one.
   */
  randomBytes?: RandomBytes;
}

const defaultRandomBytes = (): RandomBytes => {
  const webCrypto = globalThis.crypto;
  if (!webCrypto?.getRandomValues) {
    throw new EncryptionError(
      'No secure random source: pass options.randomBytes (for example expo-crypto getRandomBytes).',
    );
  }
  return (length) => webCrypto.getRandomValues(new Uint8Array(length));
};

/** The native implementation: @noble/ciphers' audited pure-JS AES-CBC (PKCS#7 is its default padding). */
export function createPureJsCipher(key: string | Uint8Array, options: PureJsCipherOptions = {}): IdentityCipher {
  const keyBytes = decodeAesKey(key);
  const randomBytes = options.randomBytes ?? defaultRandomBytes();

  return {
    async encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      if (!(iv instanceof Uint8Array) || iv.length !== IV_BYTES) {
        throw new EncryptionError(`The random source must return ${IV_BYTES} bytes.`);
      }
      return joinPayload(iv, cbc(keyBytes, iv).encrypt(utf8ToBytes(plain)));
    },
    async decrypt(payload) {
      const { iv, ciphertext } = splitPayload(payload);
      try {
        return bytesToUtf8(cbc(keyBytes, iv).decrypt(ciphertext));
      } catch {
        throw new EncryptionError('The payload could not be decrypted with this key.');
      }
    },
  };
}
