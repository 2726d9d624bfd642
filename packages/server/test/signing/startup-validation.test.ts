import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { applyUpdatesDevelopmentDefaults } from '../../src/config/updates-development-defaults.js';
import { generateSigningKey } from '../../src/signing/development-signing-key.js';
import { fetchManifestLikeExpo } from '../support/expo-client.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer } from '../support/test-server.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-keys-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, content: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
};
const pair = generateSigningKey('startup test');
const other = generateSigningKey('another');
const keyFile = write('key.pem', pair.privateKeyPem);
const certFile = write('cert.pem', pair.certificatePem);

describe('signing material at start-up', () => {
  it('a server signs manifests with the configured key', async () => {
    const server = await startTestServer('sqlite', {
      env: { OTA_SIGNING_KEY_PATH: keyFile, OTA_SIGNING_CERT_PATH: certFile, OTA_SIGNING_KEY_ID: 'main' },
    });
    try {
      const track = { channel: 'production', platform: 'ios', runtimeVersion: '1.0.0(1)' } as const;
      await publishRelease(server, { ...track, launch: fileOf('bundle', 'application/javascript', '.bundle') });
      // Throws unless the signature verifies with the configured certificate, as the app checks it.
      const result = await fetchManifestLikeExpo(server.url, 'expo', track, {
        certificatePem: pair.certificatePem,
        keyId: 'main',
      });
      expect(result.kind).toBe('update');
      expect(server.logs.text).not.toContain(pair.privateKeyPem.split('\n')[1]);
    } finally {
      await server.close();
    }
  });

  it.each([
    [
      'a certificate of another key',
      { OTA_SIGNING_KEY_PATH: keyFile, OTA_SIGNING_CERT_PATH: write('other.pem', other.certificatePem) },
      /OTA_SIGNING_CERT_PATH does not belong to the key in OTA_SIGNING_KEY_PATH/,
    ],
    [
      'a missing key file',
      { OTA_SIGNING_KEY_PATH: path.join(dir, 'nope.pem'), OTA_SIGNING_CERT_PATH: certFile },
      /Cannot read OTA_SIGNING_KEY_PATH/,
    ],
    [
      'an inline key that is not PEM',
      { OTA_SIGNING_KEY: 'hunter2', OTA_SIGNING_CERT_PATH: certFile },
      /OTA_SIGNING_KEY is not a readable/,
    ],
  ])('%s stops start-up naming the variable', async (_name, env, message) => {
    const failure = await startTestServer('sqlite', { env }).then(
      async (server) => {
        await server.close();
        return undefined;
      },
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(message);
    expect(failure?.message).not.toContain('hunter2');
  });
});

describe('development signing key', () => {
  it('is generated once into DATA_DIR/dev/code-signing and reused', async () => {
    const devDir = path.join(dir, 'dev');
    const config = loadConfig({ DATA_DIR: dir });
    const first = await applyUpdatesDevelopmentDefaults(config, devDir);
    expect(first.notice).toMatchObject({ createdCodeSigningKey: true, codeSigningKeyId: 'main' });
    const certificate = fs.readFileSync(first.notice.codeSigningCertificateFile!, 'utf8');
    expect(fs.statSync(path.join(devDir, 'code-signing', 'private-key.pem')).mode & 0o777).toBe(0o600);
    const second = await applyUpdatesDevelopmentDefaults(config, devDir);
    expect(second.notice.createdCodeSigningKey).toBe(false);
    expect(fs.readFileSync(second.notice.codeSigningCertificateFile!, 'utf8')).toBe(certificate);
    expect(second.config.updates?.signing).toEqual(first.config.updates?.signing);
    // The URL secret is kept too, so signed URLs survive a restart.
    expect(second.config.objects.store).toEqual(first.config.objects.store);
  });

  it('explicit configuration wins over development defaults', async () => {
    const config = loadConfig({ DATA_DIR: dir, OTA_SIGNING_KEY_PATH: keyFile, OTA_SIGNING_CERT_PATH: certFile });
    const { config: applied, notice } = await applyUpdatesDevelopmentDefaults(config, path.join(dir, 'dev2'));
    expect(applied.updates?.signing?.key.path).toBe(keyFile);
    expect(notice.codeSigningCertificateFile).toBeUndefined();
  });
});
