import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CertificateModule } from '../certificates/certificates-plugin.js';
import type { Config } from './config.js';

export interface CertificateDevelopmentNotice {
  certAesKeyFile: string;
  jwtSecretFile: string;
  /** Which of the two were generated on this start. */
  createdCertificateKeys: string[];
}

/** Reads a development secret from its file, creating it first when missing. */
function secretFile(file: string, create: () => string, created: string[], name: string): string {
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, `${create()}\n`, { mode: 0o600 });
    created.push(name);
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/**
 * Development keys for certificate issuance, kept in DATA_DIR/dev so they survive restarts:
 * the clients' AES key (cert-aes-key, Base64 of 32 bytes) and the HS256 secret user tokens are
 * signed with (jwt-secret, read by `ferry dev-token`). Never called when NODE_ENV=production;
 * changes nothing (and gives no notice) when the certificate area is off.
 */
export function applyCertificateDevelopmentDefaults(
  config: Config,
  devDir: string,
): { config: Config; notice: CertificateDevelopmentNotice | undefined } {
  // The keys belong to the certificate area: nothing is generated while it is off.
  if (!config.certificates) return { config, notice: undefined };
  const certAesKeyFile = path.join(devDir, 'cert-aes-key');
  const jwtSecretFile = path.join(devDir, 'jwt-secret');
  const created: string[] = [];
  const certificates = { ...config.certificates, auth: { ...config.certificates.auth } };
  if (!certificates.aesKey) {
    const text = secretFile(certAesKeyFile, () => randomBytes(32).toString('base64'), created, 'CERT_AES_KEY');
    const key = Buffer.from(text, 'base64');
    if (key.length !== 32)
      throw new Error(`${certAesKeyFile} must hold the Base64 of 32 bytes; delete it to regenerate`);
    certificates.aesKey = key;
  }
  if (!certificates.auth.secret && !certificates.auth.jwksUrl) {
    certificates.auth.secret = secretFile(
      jwtSecretFile,
      () => randomBytes(32).toString('base64url'),
      created,
      'AUTH_JWT_SECRET',
    );
  }
  return {
    config: { ...config, certificates },
    notice: { certAesKeyFile, jwtSecretFile, createdCertificateKeys: created },
  };
}

/** The lines `npm start` prints about certificates in development. */
export function certificateAnnouncement(notice: CertificateDevelopmentNotice, module: CertificateModule): string[] {
  const lines = [
    `Certificate AES key (CERT_AES_KEY${notice.createdCertificateKeys.includes('CERT_AES_KEY') ? ', generated now' : ''}): ${notice.certAesKeyFile}`,
    `User tokens: \`ferry dev-token --user <id>\` (@ferry/cli with @ferry/dev-tools; \`npm run ferry -- dev-token …\` in the Ferry repository; secret in ${notice.jwtSecretFile})`,
  ];
  for (const [vendor, simulator] of Object.entries(module.simulators)) {
    if (simulator)
      lines.push(
        `${vendor} simulator: ${simulator.url} (approve: POST ${simulator.url}/_control/sessions/latest/approve)`,
      );
  }
  return lines;
}
