import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  applyCertificateDevelopmentDefaults,
  type CertificateDevelopmentNotice,
} from './certificate-development-defaults.js';
import type { Config } from './config.js';
import { applyUpdatesDevelopmentDefaults, type UpdatesDevelopmentNotice } from './updates-development-defaults.js';

export interface DevelopmentNotice extends UpdatesDevelopmentNotice, CertificateDevelopmentNotice {
  /** Set only on the start that created the token: it is shown once, then read from the file. */
  createdReleaseToken?: string;
  releaseTokenFile: string;
}

/**
 * Fills in what development needs and production must configure: DATA_DIR and a release token kept
 * in DATA_DIR/dev so it survives restarts. Never called when NODE_ENV=production.
 */
export function applyDevelopmentDefaults(base: Config): { config: Config; notice: DevelopmentNotice } {
  const devDir = path.join(base.dataDir, 'dev');
  fs.mkdirSync(devDir, { recursive: true, mode: 0o700 });
  // Code-signing key and object URL secret (updates-development-defaults.ts).
  const updates = applyUpdatesDevelopmentDefaults(base, devDir);
  // Certificate AES key and user-token secret (certificate-development-defaults.ts).
  const { config, notice: certificateNotice } = applyCertificateDevelopmentDefaults(updates.config, devDir);
  const updatesNotice = { ...updates.notice, ...certificateNotice };
  const releaseTokenFile = path.join(devDir, 'release-token');
  if (config.releaseToken) return { config, notice: { ...updatesNotice, releaseTokenFile } };

  let createdReleaseToken: string | undefined;
  if (!fs.existsSync(releaseTokenFile)) {
    createdReleaseToken = `dev_${randomBytes(24).toString('base64url')}`;
    fs.writeFileSync(releaseTokenFile, `${createdReleaseToken}\n`, { mode: 0o600 });
  }
  const releaseToken = fs.readFileSync(releaseTokenFile, 'utf8').trim();
  return {
    config: { ...config, releaseToken },
    notice: { ...updatesNotice, createdReleaseToken, releaseTokenFile },
  };
}
