import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import forge from 'node-forge';
import { ConfigError } from '../config/env.js';
import type { PemSource, SigningConfig } from '../config/updates-config.js';

/** Extended key usage every Expo code-signing leaf certificate must carry. */
export const CODE_SIGNING_EKU = '1.3.6.1.5.5.7.3.3';
const MIN_RSA_BITS = 2048;

export interface SigningMaterial {
  privateKey: KeyObject;
  certificate: X509Certificate;
  certificatePem: string;
  keyId: string;
  /** Days until the certificate expires; an expired certificate stops every update. */
  daysLeft: number;
}

function readPem(source: PemSource): string {
  if (source.inline !== undefined) return source.inline;
  try {
    return fs.readFileSync(source.path!, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`Cannot read ${source.variable} (${source.path}): ${code}`);
  }
}

function parsePrivateKey(pem: string, variable: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    // The parser's own message may quote the input; never echo key material.
    throw new ConfigError(`${variable} is not a readable, unencrypted PEM private key`);
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new ConfigError(`${variable} must be an RSA key (alg rsa-v1_5-sha256), not ${key.asymmetricKeyType}`);
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) throw new ConfigError(`${variable} must be at least ${MIN_RSA_BITS} bits, it has ${bits}`);
  return key;
}

function parseCertificate(pem: string, variable: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw new ConfigError(`${variable} is not a readable PEM X.509 certificate`);
  }
}

/** KU digitalSignature; node:crypto does not expose key usage bits, node-forge does. */
function hasDigitalSignatureUsage(pem: string): boolean {
  try {
    const extension = forge.pki.certificateFromPem(pem).getExtension('keyUsage') as
      | { digitalSignature?: boolean }
      | undefined;
    return extension?.digitalSignature === true;
  } catch {
    return false;
  }
}

/**
 * Checks what the app will check, at start-up rather than on the first phone: the key and the
 * certificate belong together, the certificate allows digital signatures and code signing, and
 * `now` is inside its validity window. Each failure names the variable to fix.
 */
export function validateSigningMaterial(
  keyPem: string,
  certificatePem: string,
  names: { key: string; certificate: string },
  now: Date,
): { privateKey: KeyObject; certificate: X509Certificate; daysLeft: number } {
  const privateKey = parsePrivateKey(keyPem, names.key);
  const certificate = parseCertificate(certificatePem, names.certificate);
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new ConfigError(`${names.certificate} does not belong to the key in ${names.key} (their public keys differ)`);
  }
  if (!hasDigitalSignatureUsage(certificatePem)) {
    throw new ConfigError(`${names.certificate} lacks the digitalSignature key usage that expo-updates requires`);
  }
  if (!(certificate.keyUsage ?? []).includes(CODE_SIGNING_EKU)) {
    throw new ConfigError(`${names.certificate} lacks the codeSigning extended key usage (${CODE_SIGNING_EKU})`);
  }
  const notBefore = Date.parse(certificate.validFrom);
  const notAfter = Date.parse(certificate.validTo);
  if (now.getTime() < notBefore) {
    throw new ConfigError(`${names.certificate} is not valid yet (valid from ${new Date(notBefore).toISOString()})`);
  }
  if (now.getTime() > notAfter) {
    throw new ConfigError(`${names.certificate} expired on ${new Date(notAfter).toISOString()}`);
  }
  return { privateKey, certificate, daysLeft: Math.floor((notAfter - now.getTime()) / 86_400_000) };
}

/** Reads (file or inline) and validates the configured key and certificate. */
export function loadSigningMaterial(config: SigningConfig, now: Date = new Date()): SigningMaterial {
  const keyPem = readPem(config.key);
  const certificatePem = readPem(config.certificate);
  const checked = validateSigningMaterial(
    keyPem,
    certificatePem,
    { key: config.key.variable, certificate: config.certificate.variable },
    now,
  );
  return { ...checked, certificatePem, keyId: config.keyId };
}
