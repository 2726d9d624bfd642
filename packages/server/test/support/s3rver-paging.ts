import crypto from 'node:crypto';

/**
 * s3rver 3.7 makes and reads ListObjectsV2 continuation tokens with single DES, which OpenSSL 3
 * (Node 18+) only has in its legacy provider: any truncated listing answers 500 InternalError.
 * Importing this module maps s3rver's `des` onto triple DES with the same 8-byte blocks (the key
 * repeated), in this process only, so listings can page as on S3. The tokens stay opaque to the
 * client either way; nothing of Ferry's own code is touched.
 */
const createCipheriv = crypto.createCipheriv;
const createDecipheriv = crypto.createDecipheriv;
const tripled = (key: crypto.CipherKey): Buffer => {
  const bytes = Buffer.from(key as Uint8Array);
  return Buffer.concat([bytes, bytes, bytes]);
};

if (!(createCipheriv as { ferryPaging?: true }).ferryPaging) {
  const cipher = ((algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null, options?: unknown) =>
    algorithm === 'des'
      ? createCipheriv('des-ede3-cbc', tripled(key), iv)
      : createCipheriv(algorithm, key, iv, options as never)) as typeof crypto.createCipheriv;
  const decipher = ((algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null, options?: unknown) =>
    algorithm === 'des'
      ? createDecipheriv('des-ede3-cbc', tripled(key), iv)
      : createDecipheriv(algorithm, key, iv, options as never)) as typeof crypto.createDecipheriv;
  Object.assign(cipher, { ferryPaging: true });
  crypto.createCipheriv = cipher;
  crypto.createDecipheriv = decipher;
}
