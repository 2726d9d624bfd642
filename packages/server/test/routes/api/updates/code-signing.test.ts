import { verify, X509Certificate } from 'node:crypto';
import { CodeSigningResponse } from '@ferry/contracts';
import { parseDictionary } from 'structured-headers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../../../src/signing/development-signing-key.js';
import { startTestServer, TEST_SIGNING, type TestServer } from '../../../support/test-server.js';

const NONCE = 'n0nce-0123456789abcdef_XYZ';

/** The code-signing identity over real HTTP: no database involved, so SQLite alone. */
describe('GET /api/updates/code-signing', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { OTA_SIGNING_KEY_ID: 'team-key' } });
  });
  afterAll(async () => server?.close());

  const codeSigning = (query: string) => fetch(`${server.url}/api/updates/code-signing${query}`);

  it('answers the certificate, the key id and a signature over the nonce that the certificate verifies, without a token', async () => {
    const response = await codeSigning(`?nonce=${NONCE}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = CodeSigningResponse.parse(await response.json());
    expect(body).toMatchObject({
      keyId: 'team-key',
      alg: 'rsa-v1_5-sha256',
      certificate: TEST_SIGNING.certificatePem,
      proof: { body: `ferry-code-signing-proof:${NONCE}` },
    });
    const signature = parseDictionary(body.proof.signature);
    expect(signature.get('keyid')?.[0]).toBe('team-key');
    expect(signature.get('alg')?.[0]).toBe('rsa-v1_5-sha256');
    const sig = Buffer.from(String(signature.get('sig')?.[0]), 'base64');
    const proof = Buffer.from(body.proof.body, 'utf8');
    expect(verify('sha256', proof, new X509Certificate(TEST_SIGNING.certificatePem).publicKey, sig)).toBe(true);
    // Another key's certificate does not verify it: what `ferry publish` refuses on.
    const other = new X509Certificate(generateSigningKey('another team').certificatePem);
    expect(verify('sha256', proof, other.publicKey, sig)).toBe(false);
  });

  it('signs each nonce afresh', async () => {
    const a = CodeSigningResponse.parse(await (await codeSigning(`?nonce=${NONCE}a`)).json());
    const b = CodeSigningResponse.parse(await (await codeSigning(`?nonce=${NONCE}b`)).json());
    expect(a.proof.signature).not.toBe(b.proof.signature);
  });

  it.each([
    ['no nonce', ''],
    ['a short nonce', '?nonce=short'],
    ['a nonce with other characters', `?nonce=${encodeURIComponent('{"type":"noUpdateAvailable"}')}`],
    ['a nonce over 128 characters', `?nonce=${'a'.repeat(129)}`],
  ])('%s → 400 VALIDATION_FAILED, nothing signed', async (_name, query) => {
    const response = await codeSigning(query);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(body)).toContain('nonce');
  });
});
