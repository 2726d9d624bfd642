import { base64 } from '@scure/base';
import { EncryptionError } from './identity-cipher.js';

export const IV_BYTES = 16;
const BLOCK_BYTES = 16;

/** Base64 of the IV followed by the ciphertext: the wire form of every encrypted field. */
export function joinPayload(iv: Uint8Array, ciphertext: Uint8Array): string {
  const joined = new Uint8Array(iv.length + ciphertext.length);
  joined.set(iv, 0);
  joined.set(ciphertext, iv.length);
  return base64.encode(joined);
}

/** Splits a payload back into IV and ciphertext, rejecting shapes no encryption could have produced. */
export function splitPayload(payload: string): { iv: Uint8Array<ArrayBuffer>; ciphertext: Uint8Array<ArrayBuffer> } {
  let bytes: Uint8Array;
  try {
    bytes = base64.decode(payload);
  } catch {
    throw new EncryptionError('The encrypted payload is not valid Base64.');
  }
  if (bytes.length < IV_BYTES + BLOCK_BYTES || (bytes.length - IV_BYTES) % BLOCK_BYTES !== 0) {
    throw new EncryptionError('The encrypted payload has the wrong length for AES-CBC.');
  }
  return { iv: bytes.slice(0, IV_BYTES), ciphertext: bytes.slice(IV_BYTES) };
}
