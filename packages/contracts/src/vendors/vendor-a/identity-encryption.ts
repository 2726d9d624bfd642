import { createCipheriv, createDecipheriv } from 'node:crypto';

/** VENDOR_A's IV: the account's user id, zero-padded or truncated to 16 bytes. */
export const vendorAIv = (userId: string): Buffer => {
  const iv = Buffer.alloc(16);
  Buffer.from(userId, 'utf8').copy(iv, 0, 0, 16);
  return iv;
};

/** AES-128-CBC/PKCS#7 with the account key: how VENDOR_A's `...Enc` fields are encrypted. */
export function encryptForVendorA(plain: string, ekey: Buffer, userId: string): string {
  const cipher = createCipheriv('aes-128-cbc', ekey, vendorAIv(userId));
  return Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
}

/** The simulator's side of encryptForVendorA. */
export function decryptForVendorA(encrypted: string, ekey: Buffer, userId: string): string {
  const decipher = createDecipheriv('aes-128-cbc', ekey, vendorAIv(userId));
  return Buffer.concat([decipher.update(Buffer.from(encrypted, 'base64')), decipher.final()]).toString('utf8');
}
