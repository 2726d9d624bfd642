import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Areas } from './areas.js';
import {
  applyCertificateDevelopmentDefaults,
  type CertificateDevelopmentNotice,
} from './certificate-development-defaults.js';
import type { Config } from './config.js';
import { applyUpdatesDevelopmentDefaults, type UpdatesDevelopmentNotice } from './updates-development-defaults.js';

export interface DevelopmentNotice extends UpdatesDevelopmentNotice {
  areas: Areas;
  /** The certificate keys; undefined when the certificate area is off. */
  certificates: CertificateDevelopmentNotice | undefined;
  /** Set only on the start that created the token: it is shown once, then read from the file. */
  createdReleaseToken?: string;
  /** DATA_DIR/dev/release-token, when this start uses the development token. */
  releaseTokenFile?: string;
  /**
   * What the development token stands in for: the release token (OTA on, OTA_RELEASE_TOKEN unset;
   * it is then also the operator token), or only the operator token (OTA off, OPERATOR_TOKEN unset).
   */
  releaseTokenRole?: 'release' | 'operator';
}

/** The development token, kept in DATA_DIR/dev/release-token so it survives restarts. */
function developmentToken(file: string): { token: string; created?: string } {
  let created: string | undefined;
  if (!fs.existsSync(file)) {
    created = `dev_${randomBytes(24).toString('base64url')}`;
    fs.writeFileSync(file, `${created}\n`, { mode: 0o600 });
  }
  return { token: fs.readFileSync(file, 'utf8').trim(), created };
}

/**
 * Fills in what development needs and production must configure, for the areas that are on
 * (FERRY_AREAS): the OTA area's signing key and release token, the certificate area's keys, and
 * the object URL secret, all kept in DATA_DIR/dev so they survive restarts. With the OTA area off
 * the same development token becomes the operator token (outside production OPERATOR_TOKEN
 * defaults to the release token, and there is none then). Never called when NODE_ENV=production.
 */
export async function applyDevelopmentDefaults(base: Config): Promise<{ config: Config; notice: DevelopmentNotice }> {
  const devDir = path.join(base.dataDir, 'dev');
  fs.mkdirSync(devDir, { recursive: true, mode: 0o700 });
  // Code-signing key and object URL secret (updates-development-defaults.ts).
  const updates = await applyUpdatesDevelopmentDefaults(base, devDir);
  // Certificate AES key and user-token secret (certificate-development-defaults.ts).
  const certificates = applyCertificateDevelopmentDefaults(updates.config, devDir);
  let config = certificates.config;
  const notice: DevelopmentNotice = { ...updates.notice, areas: config.areas, certificates: certificates.notice };
  const releaseTokenFile = path.join(devDir, 'release-token');

  let role: DevelopmentNotice['releaseTokenRole'];
  if (config.areas.ota && !config.releaseToken) role = 'release';
  else if (!config.areas.ota && config.certificates && !config.certificates.operatorToken) role = 'operator';
  if (!role) return { config, notice };

  const { token, created } = developmentToken(releaseTokenFile);
  if (role === 'release') config = { ...config, releaseToken: token };
  else if (config.certificates) config = { ...config, certificates: { ...config.certificates, operatorToken: token } };
  return { config, notice: { ...notice, createdReleaseToken: created, releaseTokenFile, releaseTokenRole: role } };
}
