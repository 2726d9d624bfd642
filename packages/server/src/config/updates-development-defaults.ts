import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDevelopmentSigningKey } from '../signing/development-signing-key.js';
import type { Config } from './config.js';

export interface UpdatesDevelopmentNotice {
  /** The certificate apps must embed (`updates.codeSigningCertificate`), when generated here. */
  codeSigningCertificateFile?: string;
  createdCodeSigningKey?: boolean;
  /** The keyid apps must configure (`updates.codeSigningMetadata.keyid`). */
  codeSigningKeyId?: string;
}

/**
 * Development only: a code-signing key and certificate (DATA_DIR/dev/code-signing; OTA area only)
 * and the local object store's URL secret (DATA_DIR/dev/object-url-secret; every area), each made
 * once and kept, so signed URLs and app builds keep working across restarts. Explicit
 * configuration always wins.
 */
export async function applyUpdatesDevelopmentDefaults(
  config: Config,
  devDir: string,
): Promise<{ config: Config; notice: UpdatesDevelopmentNotice }> {
  const notice: UpdatesDevelopmentNotice = {};
  fs.mkdirSync(devDir, { recursive: true, mode: 0o700 });
  // The signing key belongs to the OTA area: nothing is generated while it is off.
  let updates = config.updates;
  if (updates && !updates.signing) {
    const generated = await ensureDevelopmentSigningKey(devDir, updates.keyId);
    updates = { ...updates, signing: generated.signing };
    notice.codeSigningCertificateFile = generated.certificateFile;
    notice.createdCodeSigningKey = generated.created;
    notice.codeSigningKeyId = updates.keyId;
  }
  // The secret that seals other apps' signing keys: made once, kept, like the URL secret below.
  if (updates && !updates.appKeysSecret) {
    const secretFile = path.join(devDir, 'app-keys.secret');
    if (!fs.existsSync(secretFile))
      fs.writeFileSync(secretFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    updates = { ...updates, appKeysSecret: { variable: 'APP_KEYS_SECRET_PATH', path: secretFile } };
  }

  let objects = config.objects;
  if (objects.store.kind === 'local' && !objects.store.urlSecret) {
    const secretFile = path.join(devDir, 'object-url-secret');
    if (!fs.existsSync(secretFile)) {
      fs.writeFileSync(secretFile, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    }
    const urlSecret = Buffer.from(fs.readFileSync(secretFile, 'utf8').trim(), 'utf8');
    objects = { ...objects, store: { ...objects.store, urlSecret } };
  }
  return { config: { ...config, updates, objects }, notice };
}
