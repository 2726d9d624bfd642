import { base64 } from '@scure/base';
import { EncryptionError } from './identity-cipher.js';

export const AES_KEY_BYTES = 32;

/**
 * Reads the shared AES-256 key from its Base64 form (how it travels in build variables). Rejects
 * anything that is not exactly 32 bytes, so a truncated variable fails loudly instead of producing
 * payloads the server cannot read. The message never echoes the key.
 */
export function decodeAesKey(key: string | Uint8Array): Uint8Array<ArrayBuffer> {
  let bytes: Uint8Array;
  if (typeof key === 'string') {
    try {
      bytes = base64.decode(key.trim());
    } catch {
      throw new EncryptionError('The certificate AES key is not valid Base64.');
    }
  } else {
    bytes = key;
  }
  if (bytes.length !== AES_KEY_BYTES) {
    throw new EncryptionError(`The certificate AES key must be ${AES_KEY_BYTES} bytes; it has ${bytes.length}.`);
  }
  return Uint8Array.from(bytes);
}
