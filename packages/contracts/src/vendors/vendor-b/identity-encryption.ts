import { constants, type KeyObject, privateDecrypt, publicEncrypt } from 'node:crypto';

/** RSA PKCS#1 v1.5 with the account's public key, Base64: how VENDOR_B takes identity numbers. */
export function encryptForVendorB(plain: string, publicKey: KeyObject): string {
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(plain, 'utf8')).toString(
    'base64',
  );
}

/**
 * The simulator's side. Node 20 refuses PKCS#1 v1.5 private decryption (CVE-2023-46809, a timing
 * oracle), so the simulator decrypts raw and strips the padding itself. Acceptable for a simulator,
 * which answers no oracle-relevant distinctions; never use this in a real service.
 */
export function decryptForVendorB(encrypted: string, privateKey: KeyObject): string {
  const block = privateDecrypt(
    { key: privateKey, padding: constants.RSA_NO_PADDING },
    Buffer.from(encrypted, 'base64'),
  );
  const separator = block.indexOf(0, 2);
  if (block[0] !== 0 || block[1] !== 2 || separator < 10) throw new Error('bad padding');
  return block.subarray(separator + 1).toString('utf8');
}
