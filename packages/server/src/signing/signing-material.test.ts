import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config/config.js';
import { generateSigningKey } from './development-signing-key.js';
import { CODE_SIGNING_EKU, loadSigningMaterial, validateSigningMaterial } from './signing-material.js';

const NAMES = { key: 'OTA_SIGNING_KEY_PATH', certificate: 'OTA_SIGNING_CERT_PATH' };
const NOW = new Date();
const good = generateSigningKey('test');

/** A certificate for `keyPem` with the chosen usages and validity, made with node-forge. */
function certificateFor(
  keyPem: string,
  options: { digitalSignature?: boolean; codeSigning?: boolean; notBefore?: Date; notAfter?: Date } = {},
): string {
  const privateKey = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const publicKey = forge.pki.setRsaPublicKey(privateKey.n, privateKey.e);
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = options.notBefore ?? new Date(NOW.getTime() - 3600_000);
  cert.validity.notAfter = options.notAfter ?? new Date(NOW.getTime() + 365 * 86_400_000);
  const attrs = [{ name: 'commonName', value: 'test' }];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'keyUsage', critical: true, digitalSignature: options.digitalSignature ?? true },
    {
      name: 'extKeyUsage',
      critical: true,
      codeSigning: options.codeSigning ?? true,
      serverAuth: !(options.codeSigning ?? true),
    },
  ]);
  cert.sign(privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

const check = (keyPem: string, certPem: string) => () => validateSigningMaterial(keyPem, certPem, NAMES, NOW);

describe('validateSigningMaterial', () => {
  it('accepts a generated development key and certificate', () => {
    const material = validateSigningMaterial(good.privateKeyPem, good.certificatePem, NAMES, NOW);
    expect(material.certificate.keyUsage).toContain(CODE_SIGNING_EKU);
    expect(material.daysLeft).toBeGreaterThan(3000);
  });

  it.each([
    [
      'a key from another pair',
      () => check(generateSigningKey('other').privateKeyPem, good.certificatePem),
      /OTA_SIGNING_CERT_PATH does not belong to the key in OTA_SIGNING_KEY_PATH/,
    ],
    [
      'no digitalSignature usage',
      () => check(good.privateKeyPem, certificateFor(good.privateKeyPem, { digitalSignature: false })),
      /OTA_SIGNING_CERT_PATH lacks the digitalSignature/,
    ],
    [
      'no codeSigning usage',
      () => check(good.privateKeyPem, certificateFor(good.privateKeyPem, { codeSigning: false })),
      /OTA_SIGNING_CERT_PATH lacks the codeSigning/,
    ],
    [
      'an expired certificate',
      () =>
        check(
          good.privateKeyPem,
          certificateFor(good.privateKeyPem, {
            notBefore: new Date(NOW.getTime() - 2 * 86_400_000),
            notAfter: new Date(NOW.getTime() - 86_400_000),
          }),
        ),
      /OTA_SIGNING_CERT_PATH expired/,
    ],
    [
      'a certificate not valid yet',
      () =>
        check(
          good.privateKeyPem,
          certificateFor(good.privateKeyPem, { notBefore: new Date(NOW.getTime() + 86_400_000) }),
        ),
      /OTA_SIGNING_CERT_PATH is not valid yet/,
    ],
    [
      'garbage instead of a key',
      () => check('-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----', good.certificatePem),
      /OTA_SIGNING_KEY_PATH is not a readable/,
    ],
    [
      'garbage instead of a certificate',
      () => check(good.privateKeyPem, 'not a certificate'),
      /OTA_SIGNING_CERT_PATH is not a readable/,
    ],
    [
      'an EC key',
      () =>
        check(
          generateKeyPairSync('ec', { namedCurve: 'P-256' })
            .privateKey.export({ type: 'pkcs8', format: 'pem' })
            .toString(),
          good.certificatePem,
        ),
      /must be an RSA key/,
    ],
    [
      'a 1024-bit RSA key',
      () =>
        check(
          generateKeyPairSync('rsa', { modulusLength: 1024 })
            .privateKey.export({ type: 'pkcs8', format: 'pem' })
            .toString(),
          good.certificatePem,
        ),
      /at least 2048 bits/,
    ],
  ])('refuses %s, naming the variable', (_name, makeCheck, message) => {
    const run = makeCheck();
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(message);
  });

  it('never echoes key material in its messages', () => {
    const garbage = '-----BEGIN PRIVATE KEY-----\nU0VDUkVUU0VDUkVU\n-----END PRIVATE KEY-----';
    try {
      validateSigningMaterial(garbage, good.certificatePem, NAMES, NOW);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('U0VDUkVU');
    }
  });
});

describe('loadSigningMaterial', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-signing-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads files and inline PEMs', () => {
    fs.writeFileSync(path.join(dir, 'key.pem'), good.privateKeyPem);
    const fromFiles = loadSigningMaterial({
      key: { variable: 'OTA_SIGNING_KEY_PATH', path: path.join(dir, 'key.pem') },
      certificate: { variable: 'OTA_SIGNING_CERT', inline: good.certificatePem },
      keyId: 'main',
    });
    expect(fromFiles.keyId).toBe('main');
    expect(new X509Certificate(fromFiles.certificatePem).checkPrivateKey(fromFiles.privateKey)).toBe(true);
  });

  it('names the variable of a file it cannot read', () => {
    expect(() =>
      loadSigningMaterial({
        key: { variable: 'OTA_SIGNING_KEY_PATH', path: path.join(dir, 'missing.pem') },
        certificate: { variable: 'OTA_SIGNING_CERT', inline: good.certificatePem },
        keyId: 'main',
      }),
    ).toThrow(/Cannot read OTA_SIGNING_KEY_PATH .*ENOENT/);
  });
});
