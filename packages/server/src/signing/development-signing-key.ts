import { generateKeyPair, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  convertCertificateToCertificatePEM,
  convertKeyPairToPEM,
  generateSelfSignedCodeSigningCertificate,
} from '@expo/code-signing-certificates';
import forge from 'node-forge';
import type { SigningConfig } from '../config/updates-config.js';

export interface GeneratedSigningKey {
  privateKeyPem: string;
  publicKeyPem: string;
  certificatePem: string;
}

const DEVELOPMENT_VALIDITY_YEARS = 10;

// RSA keys come from node:crypto (native, off the main thread); @expo/code-signing-certificates'
// own generateKeyPair is node-forge's pure-JavaScript one, which would hold a first start up.
const RSA_OPTIONS = {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
} as const;

/** A self-signed code-signing certificate for a PEM key pair, as `npx expo-updates codesigning:generate` makes it. */
function withCertificate(pem: { privateKey: string; publicKey: string }, commonName: string, now: Date) {
  const keyPair = {
    privateKey: forge.pki.privateKeyFromPem(pem.privateKey),
    publicKey: forge.pki.publicKeyFromPem(pem.publicKey),
  };
  const validityNotAfter = new Date(now);
  validityNotAfter.setFullYear(validityNotAfter.getFullYear() + DEVELOPMENT_VALIDITY_YEARS);
  const certificate = generateSelfSignedCodeSigningCertificate({
    keyPair,
    // A minute of slack so a freshly made certificate is valid on a phone whose clock is slightly behind.
    validityNotBefore: new Date(now.getTime() - 60_000),
    validityNotAfter,
    commonName,
  });
  const { privateKeyPEM, publicKeyPEM } = convertKeyPairToPEM(keyPair);
  return {
    privateKeyPem: privateKeyPEM,
    publicKeyPem: publicKeyPEM,
    certificatePem: convertCertificateToCertificatePEM(certificate),
  };
}

/** A key pair and a self-signed code-signing certificate. */
export function generateSigningKey(commonName: string, now: Date = new Date()): GeneratedSigningKey {
  return withCertificate(generateKeyPairSync('rsa', RSA_OPTIONS), commonName, now);
}

/** The same, with the key made in libuv's thread pool, so the main thread can go on meanwhile. */
export async function generateSigningKeyInBackground(
  commonName: string,
  now = new Date(),
): Promise<GeneratedSigningKey> {
  const pem = await new Promise<{ privateKey: string; publicKey: string }>((resolve, reject) =>
    generateKeyPair('rsa', RSA_OPTIONS, (error, publicKey, privateKey) =>
      error ? reject(error) : resolve({ privateKey, publicKey }),
    ),
  );
  return withCertificate(pem, commonName, now);
}

export interface DevelopmentSigningKey {
  signing: SigningConfig;
  directory: string;
  certificateFile: string;
  created: boolean;
}

/**
 * Development only: the code-signing key and certificate in DATA_DIR/dev/code-signing, made on the
 * first start and reused after, so an app built against the certificate keeps verifying updates.
 */
export async function ensureDevelopmentSigningKey(devDir: string, keyId: string): Promise<DevelopmentSigningKey> {
  const directory = path.join(devDir, 'code-signing');
  const keyFile = path.join(directory, 'private-key.pem');
  const certificateFile = path.join(directory, 'certificate.pem');
  let created = false;
  if (!fs.existsSync(keyFile) || !fs.existsSync(certificateFile)) {
    const generated = await generateSigningKeyInBackground('Ferry development');
    fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
    fs.writeFileSync(keyFile, generated.privateKeyPem, { mode: 0o600 });
    fs.writeFileSync(path.join(directory, 'public-key.pem'), generated.publicKeyPem);
    fs.writeFileSync(certificateFile, generated.certificatePem);
    created = true;
  }
  return {
    signing: {
      key: { variable: 'OTA_SIGNING_KEY_PATH', path: keyFile },
      certificate: { variable: 'OTA_SIGNING_CERT_PATH', path: certificateFile },
      keyId,
    },
    directory,
    certificateFile,
    created,
  };
}

let ephemeral: GeneratedSigningKey | undefined;

/**
 * For a server built without any signing configuration outside production (tests, embedding):
 * one in-memory key per process, never written anywhere.
 */
export function ephemeralSigningKey(): GeneratedSigningKey {
  ephemeral ??= generateSigningKey('Ferry ephemeral (not for apps)');
  return ephemeral;
}
