import { createPrivateKey, verify, X509Certificate } from 'node:crypto';
import {
  convertCertificatePEMToCertificate,
  convertPrivateKeyPEMToPrivateKey,
  signBufferRSASHA256AndVerify,
} from '@expo/code-signing-certificates';
import { parseDictionary } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { generateSigningKey } from './development-signing-key.js';
import { NodeManifestSigner } from './manifest-signer.js';

const generated = generateSigningKey('signer test');
const signer = new NodeManifestSigner(createPrivateKey(generated.privateKeyPem), generated.certificatePem, 'main');

describe('NodeManifestSigner', () => {
  it('signs RSA PKCS#1 v1.5 SHA-256, verifiable with the certificate', () => {
    const body = Buffer.from('{"id":"x","ünïcode":"✓"}');
    const signature = Buffer.from(signer.sign(body), 'base64');
    const publicKey = new X509Certificate(generated.certificatePem).publicKey;
    expect(verify('sha256', body, publicKey, signature)).toBe(true);
    expect(verify('sha256', Buffer.from(`${body} `), publicKey, signature)).toBe(false);
  });

  it('produces the same signature as @expo/code-signing-certificates', () => {
    const body = Buffer.from('{"manifest":true}');
    const expo = signBufferRSASHA256AndVerify(
      convertPrivateKeyPEMToPrivateKey(generated.privateKeyPem),
      convertCertificatePEMToCertificate(generated.certificatePem),
      body,
    );
    expect(signer.sign(body)).toBe(expo);
  });

  it('writes the header as an RFC 8941 dictionary of strings', () => {
    const header = signer.signatureHeader(Buffer.from('x'));
    const dictionary = parseDictionary(header);
    expect([...dictionary.keys()]).toEqual(['sig', 'keyid', 'alg']);
    expect(dictionary.get('keyid')?.[0]).toBe('main');
    expect(dictionary.get('alg')?.[0]).toBe('rsa-v1_5-sha256');
    expect(header).toMatch(/^sig="[A-Za-z0-9+/=]+", keyid="main", alg="rsa-v1_5-sha256"$/);
  });
});
