import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  convertCertificateToCertificatePEM,
  convertKeyPairPEMToKeyPair,
  generateSelfSignedCodeSigningCertificate,
} from '@expo/code-signing-certificates';
import { CliError } from '../cli-error.js';

export const CODE_SIGNING_ALG = 'rsa-v1_5-sha256';

export interface KeyGenerationOptions {
  outDir: string;
  commonName: string;
  validityYears: number;
  /** Replace existing files; off by default so a rerun never destroys a key that apps already trust. */
  force: boolean;
  now?: Date;
}

export interface GeneratedKeys {
  privateKeyFile: string;
  publicKeyFile: string;
  certificateFile: string;
  validUntil: Date;
}

export const KEY_FILE_NAMES = {
  privateKey: 'private-key.pem',
  publicKey: 'public-key.pem',
  certificate: 'certificate.pem',
} as const;

export interface CodeSigningPair {
  privateKeyPem: string;
  publicKeyPem: string;
  certificatePem: string;
  validUntil: Date;
}

/**
 * An RSA-2048 key pair (node:crypto, native) and its self-signed code-signing certificate
 * (@expo/code-signing-certificates: key usage digitalSignature, extended key usage codeSigning), in
 * memory. The key is never printed.
 */
export function createCodeSigningPair(options: {
  commonName: string;
  validityYears: number;
  now?: Date;
}): CodeSigningPair {
  const now = options.now ?? new Date();
  const validUntil = new Date(now);
  validUntil.setUTCFullYear(validUntil.getUTCFullYear() + options.validityYears);
  const pem = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const keyPair = convertKeyPairPEMToKeyPair({ privateKeyPEM: pem.privateKey, publicKeyPEM: pem.publicKey });
  const certificate = generateSelfSignedCodeSigningCertificate({
    keyPair,
    validityNotBefore: now,
    validityNotAfter: validUntil,
    commonName: options.commonName,
  });
  return {
    privateKeyPem: pem.privateKey,
    publicKeyPem: pem.publicKey,
    certificatePem: convertCertificateToCertificatePEM(certificate),
    validUntil,
  };
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/**
 * An RSA key pair and a self-signed code-signing certificate (digitalSignature, EKU codeSigning),
 * as expo-updates and Ferry's server expect. The private key is written 0600 and never printed.
 */
export async function generateCodeSigningKeys(options: KeyGenerationOptions): Promise<GeneratedKeys> {
  const files = {
    privateKeyFile: path.join(options.outDir, KEY_FILE_NAMES.privateKey),
    publicKeyFile: path.join(options.outDir, KEY_FILE_NAMES.publicKey),
    certificateFile: path.join(options.outDir, KEY_FILE_NAMES.certificate),
  };
  if (!options.force) {
    const existing: string[] = [];
    for (const file of Object.values(files)) if (await exists(file)) existing.push(file);
    if (existing.length > 0) {
      throw new CliError(
        `${existing.join(', ')} already exist(s). Apps built with the old certificate reject manifests signed by a ` +
          'new key; pass --force only if that is what you want.',
      );
    }
  }
  const pair = createCodeSigningPair(options);
  await fs.mkdir(options.outDir, { recursive: true });
  await fs.writeFile(files.privateKeyFile, pair.privateKeyPem, { mode: 0o600 });
  await fs.chmod(files.privateKeyFile, 0o600);
  await fs.writeFile(files.publicKeyFile, pair.publicKeyPem);
  await fs.writeFile(files.certificateFile, pair.certificatePem);
  return { ...files, validUntil: pair.validUntil };
}

/** What to paste where: the app config lines (certificate only) and the server's variables (key). */
export function keyInstructions(keys: GeneratedKeys, keyid: string, appRoot: string): string {
  const certificateInApp = path.relative(appRoot, keys.certificateFile).split(path.sep).join('/');
  const relative = certificateInApp.startsWith('.') ? certificateInApp : `./${certificateInApp}`;
  return [
    `Wrote ${keys.certificateFile} (valid until ${keys.validUntil.toISOString().slice(0, 10)}),`,
    `      ${keys.publicKeyFile}`,
    `      ${keys.privateKeyFile} (mode 0600: keep it out of git and out of the app)`,
    '',
    'App config (app.config.ts, under expo.updates; the updatesConfig() helper of @ferry/expo/config writes the same):',
    `  codeSigningCertificate: '${relative}',`,
    `  codeSigningMetadata: { keyid: '${keyid}', alg: '${CODE_SIGNING_ALG}' },`,
    '',
    'Server environment:',
    `  OTA_SIGNING_KEY_PATH=${keys.privateKeyFile}`,
    `  OTA_SIGNING_CERT_PATH=${keys.certificateFile}`,
    `  OTA_SIGNING_KEY_ID=${keyid}`,
    '',
  ].join('\n');
}
