import { createPrivateKey } from 'node:crypto';
import { type CodeSigningResponse, codeSigningProofBody } from '@ferry/contracts';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../../server/src/signing/development-signing-key.js';
import { NodeManifestSigner } from '../../../server/src/signing/manifest-signer.js';
import type { AppCodeSigning } from './app-code-signing.js';
import { type CertificateProblem, certificateVerdict } from './certificate-verdict.js';

const NOW = new Date('2026-11-27T12:00:00Z');
const NONCE = 'abcdefghijklmnopqrstuvwx';
const serverKey = generateSigningKey('Ferry server', NOW);
const otherKey = generateSigningKey('another team', NOW);

/** What the server answers: its certificate, key id and its signature over the proof body. */
function serverAnswer(options: { keyId?: string; body?: string; signature?: string } = {}): CodeSigningResponse {
  const signer = new NodeManifestSigner(
    createPrivateKey(serverKey.privateKeyPem),
    serverKey.certificatePem,
    options.keyId ?? 'main',
  );
  const body = options.body ?? codeSigningProofBody(NONCE);
  return {
    keyId: signer.keyId,
    alg: 'rsa-v1_5-sha256',
    certificate: signer.certificatePem,
    proof: { body, signature: options.signature ?? signer.signatureHeader(Buffer.from(body, 'utf8')) },
  };
}

/** A certificate of the server's key without the code-signing extended key usage. */
function withoutCodeSigningUsage(): string {
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(serverKey.publicKeyPem);
  certificate.serialNumber = '01';
  certificate.validity.notBefore = new Date(NOW.getTime() - 86_400_000);
  certificate.validity.notAfter = new Date(NOW.getTime() + 86_400_000);
  const name = [{ name: 'commonName', value: 'no usage' }];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.setExtensions([{ name: 'keyUsage', digitalSignature: true }]);
  certificate.sign(forge.pki.privateKeyFromPem(serverKey.privateKeyPem), forge.md.sha256.create());
  return forge.pki.certificateToPem(certificate);
}

const app = (overrides: Partial<AppCodeSigning> = {}): AppCodeSigning => ({
  certificate: './certs/certificate.pem',
  certificateFile: '/app/certs/certificate.pem',
  certificatePath: 'certs/certificate.pem',
  keyId: 'main',
  alg: 'rsa-v1_5-sha256',
  ...overrides,
});

type Row = [
  string,
  { app?: Partial<AppCodeSigning>; pem?: string | null; server?: CodeSigningResponse; now?: Date },
  CertificateProblem | 'ok',
  RegExp?,
];

describe('certificateVerdict: would a build embedding this certificate accept what the server signs?', () => {
  const rows: Row[] = [
    ['the server’s own certificate and key id', {}, 'ok'],
    [
      'the file is not there',
      { pem: null },
      'missing',
      /certs\/certificate\.pem does not exist.*!certs\/certificate\.pem/,
    ],
    ['the file is not a certificate', { pem: 'not a pem' }, 'unreadable', /certs\/certificate\.pem is not a readable/],
    [
      'another key’s certificate',
      { pem: otherKey.certificatePem },
      'mismatch',
      /does not verify this server's signatures/,
    ],
    [
      'expired',
      { now: new Date('2040-01-01T00:00:00Z') },
      'not-valid-now',
      /valid from .* to .*, not now: devices reject every update/,
    ],
    ['not valid yet', { now: new Date('2020-01-01T00:00:00Z') }, 'not-valid-now'],
    [
      'without the code-signing usage',
      { pem: withoutCodeSigningUsage() },
      'no-code-signing-usage',
      /1\.3\.6\.1\.5\.5\.7\.3\.3/,
    ],
    ['another algorithm in the app config', { app: { alg: 'rsa-pss' } }, 'algorithm'],
    ['an app key id the server does not sign with', { app: { keyId: 'root' } }, 'key-id', /key id "main".*"root"/],
    ['a server that signs with another key id', { server: serverAnswer({ keyId: 'next' }) }, 'key-id'],
    ['a proof of another nonce', { server: serverAnswer({ body: codeSigningProofBody(`${NONCE}x`) }) }, 'proof'],
    ['a signature that is no RFC 8941 dictionary', { server: serverAnswer({ signature: '{nope' }) }, 'proof'],
  ];

  it.each(rows)('%s → %s', (_name, given, expected, message) => {
    const verdict = certificateVerdict({
      app: app(given.app),
      pem: given.pem === null ? undefined : (given.pem ?? serverKey.certificatePem),
      server: given.server ?? serverAnswer(),
      nonce: NONCE,
      now: given.now ?? NOW,
    });
    expect(verdict.ok ? 'ok' : verdict.problem).toBe(expected);
    if (message && !verdict.ok) expect(verdict.message).toMatch(message);
  });

  it('a signature without keyid counts as key id root, as expo-updates reads it', () => {
    const signer = new NodeManifestSigner(createPrivateKey(serverKey.privateKeyPem), serverKey.certificatePem, 'x');
    const body = codeSigningProofBody(NONCE);
    const sig = signer.sign(Buffer.from(body, 'utf8'));
    const server = serverAnswer({ signature: `sig="${sig}", alg="rsa-v1_5-sha256"` });
    const verdict = (keyId: string) =>
      certificateVerdict({ app: app({ keyId }), pem: serverKey.certificatePem, server, nonce: NONCE, now: NOW });
    expect(verdict('root').ok).toBe(true);
    expect(verdict('main')).toMatchObject({ ok: false, problem: 'key-id' });
  });
});
