import { createPrivateKey, createSign, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CapturedOutput } from '../../test/support/recording-fetch.js';
import { main } from '../main.js';
import { keysCommand } from './keys.js';

describe('ferry keys generate', () => {
  let dir: string;
  let out: CapturedOutput;
  let stderr: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-keys-'));
    out = new CapturedOutput();
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const ferry = (...args: string[]) => {
    const program = new Command('ferry').exitOverride();
    keysCommand(out)(program);
    return main(['node', 'ferry', ...args], program);
  };

  it('writes a key pair and a code-signing certificate that belong together', async () => {
    const certs = path.join(dir, 'app', 'certs');
    expect(await ferry('keys', 'generate', '--out', certs, '--project', path.join(dir, 'app'))).toBe(0);

    const certificate = new X509Certificate(fs.readFileSync(path.join(certs, 'certificate.pem')));
    const privateKey = createPrivateKey(fs.readFileSync(path.join(certs, 'private-key.pem')));
    expect(certificate.checkPrivateKey(privateKey)).toBe(true);
    expect(certificate.keyUsage).toContain('1.3.6.1.5.5.7.3.3'); // EKU codeSigning
    expect(certificate.subject).toContain('CN=Ferry OTA code signing');
    const validTo = Date.parse(certificate.validTo);
    expect(validTo).toBeGreaterThan(Date.now() + 9 * 365 * 24 * 3600 * 1000);
    expect(certificate.publicKey.asymmetricKeyDetails?.modulusLength).toBeGreaterThanOrEqual(2048);
    expect(fs.statSync(path.join(certs, 'private-key.pem')).mode & 0o777).toBe(0o600);

    // What the server will do: sign with the key; what the app will do: verify with the certificate.
    const signature = createSign('RSA-SHA256').update('{"id":"x"}').sign(privateKey);
    const { createVerify } = await import('node:crypto');
    expect(createVerify('RSA-SHA256').update('{"id":"x"}').verify(certificate.publicKey, signature)).toBe(true);
  });

  it('prints the app-config lines and the server variables, never the private key', async () => {
    const certs = path.join(dir, 'certs');
    expect(await ferry('keys', 'generate', '--out', certs, '--keyid', 'k2025', '--project', dir)).toBe(0);
    expect(out.text).toContain("codeSigningCertificate: './certs/certificate.pem',");
    expect(out.text).toContain("codeSigningMetadata: { keyid: 'k2025', alg: 'rsa-v1_5-sha256' },");
    expect(out.text).toContain(`OTA_SIGNING_KEY_PATH=${path.join(certs, 'private-key.pem')}`);
    expect(out.text).toContain('OTA_SIGNING_KEY_ID=k2025');
    const keyBody = fs.readFileSync(path.join(certs, 'private-key.pem'), 'utf8').split('\n')[1]!;
    expect(out.text + stderr).not.toContain('PRIVATE KEY');
    expect(out.text + stderr).not.toContain(keyBody);
  });

  it('refuses to overwrite an existing key unless --force', async () => {
    expect(await ferry('keys', 'generate', '--out', dir)).toBe(0);
    const before = fs.readFileSync(path.join(dir, 'private-key.pem'), 'utf8');
    expect(await ferry('keys', 'generate', '--out', dir)).toBe(1);
    expect(stderr).toMatch(/already exist.*--force/);
    expect(fs.readFileSync(path.join(dir, 'private-key.pem'), 'utf8')).toBe(before);
    expect(await ferry('keys', 'generate', '--out', dir, '--force')).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'private-key.pem'), 'utf8')).not.toBe(before);
  });

  it.each([
    ['--keyid', 'bad id"'],
    ['--validity-years', '0'],
    ['--validity-years', 'ten'],
  ])('rejects %s %j', async (flag, value) => {
    expect(await ferry('keys', 'generate', '--out', dir, flag, value)).toBe(1);
    expect(fs.existsSync(path.join(dir, 'private-key.pem'))).toBe(false);
  });
});
