import { verify, X509Certificate } from 'node:crypto';
import { parseDictionary } from 'structured-headers';

/**
 * Whether a stored manifest's `<ns>-signature` header verifies over its exact body with the
 * configured certificate (what an app embedding that certificate will decide). A signature made
 * with an earlier key, or a header that does not parse, does not verify.
 */
export function signatureVerifies(body: string, signatureHeader: string, certificatePem: string): boolean {
  try {
    const sig = parseDictionary(signatureHeader).get('sig')?.[0];
    if (typeof sig !== 'string') return false;
    const publicKey = new X509Certificate(certificatePem).publicKey;
    return verify('sha256', Buffer.from(body, 'utf8'), publicKey, Buffer.from(sig, 'base64'));
  } catch {
    return false;
  }
}
