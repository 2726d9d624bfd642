import type { FastifyBaseLogger } from 'fastify';
import type { UpdatesConfig } from '../config/updates-config.js';
import { ephemeralSigningKey } from './development-signing-key.js';
import { type ManifestSigner, NodeManifestSigner } from './manifest-signer.js';
import { loadSigningMaterial, validateSigningMaterial } from './signing-material.js';

/** Warn this long before the certificate expires: an expired certificate stops every update. */
const EXPIRY_WARNING_DAYS = 30;

/** Loads, validates and wraps the configured key; outside production falls back to an ephemeral one. */
export function createManifestSigner(config: UpdatesConfig, log: FastifyBaseLogger, now = new Date()): ManifestSigner {
  if (config.signing) {
    const material = loadSigningMaterial(config.signing, now);
    if (material.daysLeft < EXPIRY_WARNING_DAYS) {
      log.warn(
        { variable: config.signing.certificate.variable, daysLeft: material.daysLeft },
        'the code-signing certificate expires soon; apps will reject updates after that',
      );
    }
    return new NodeManifestSigner(material.privateKey, material.certificatePem, material.keyId);
  }
  log.warn('no OTA_SIGNING_KEY configured: manifests are signed with an ephemeral key no app trusts');
  const generated = ephemeralSigningKey();
  const { privateKey } = validateSigningMaterial(
    generated.privateKeyPem,
    generated.certificatePem,
    { key: 'ephemeral key', certificate: 'ephemeral certificate' },
    now,
  );
  return new NodeManifestSigner(privateKey, generated.certificatePem, config.keyId);
}
