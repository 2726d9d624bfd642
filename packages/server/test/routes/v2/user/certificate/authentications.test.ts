import { randomUUID } from 'node:crypto';
import { AUTHENTICATION_ID_HEADER, CertificateAuthenticationResponse, type CertificateVendor } from '@ferry/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bodyFor,
  type CertificateTestServer,
  newUser,
  secondBodyFor,
  startCertificateServer,
  unwrap,
} from '../../../../support/certificates.js';
import { describeEachEngine } from '../../../../support/engines.js';

const URL_TTL_SECONDS = 600;
/** The vendors' approval windows unless configured (vendor-a/account.ts, vendor-b/account.ts). */
const WINDOW: Record<CertificateVendor, number> = { VENDOR_A: 300, VENDOR_B: 270 };

// A client that reloads keeps only the authentication's id (the ferry-authentication-id header)
// and reads the rest again from the server: where the authentication stands, its window, the link.
describeEachEngine('certificate authentications, read again by id', (engine) => {
  let server: CertificateTestServer;
  let clockOffsetMs = 0;
  beforeAll(async () => {
    server = await startCertificateServer(engine, {
      env: { CERT_URL_TTL_SECONDS: String(URL_TTL_SECONDS) },
      now: () => new Date(Date.now() + clockOffsetMs),
    });
  });
  afterEach(() => {
    clockOffsetMs = 0;
  });
  afterAll(async () => server?.close());

  const read = (id: string, token: string | undefined) =>
    fetch(`${server.url}/v2/user/certificate/authentications/${id}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const readOk = async (id: string, token: string) => {
    const response = await read(id, token);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return CertificateAuthenticationResponse.parse(await response.json()).authentication;
  };

  describe.each(['VENDOR_A', 'VENDOR_B'] as const)('%s', (vendor) => {
    it('names the authentication in both answers, and reads pending, then issued with a link that keeps its end', async () => {
      const token = await server.tokenFor(newUser());
      const document = 'family-relations';
      const firstResponse = await server.post(document, bodyFor(document, { vendor }), token);
      expect(firstResponse.status).toBe(200);
      const id = firstResponse.headers.get(AUTHENTICATION_ID_HEADER) ?? '';
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const first = await unwrap(document, firstResponse);

      const started = Date.now();
      const pending = await readOk(id, token);
      expect(pending).toMatchObject({
        id,
        document,
        vendor,
        provider: 'provider_a',
        assignmentId: null,
        status: 'pending',
        approvalWindowSeconds: WINDOW[vendor],
        certificate: null,
      });
      const windowEnd = Date.parse(pending.approvalExpiresAt);
      expect(windowEnd).toBeGreaterThan(started + (WINDOW[vendor] - 60) * 1000);
      expect(windowEnd).toBeLessThanOrEqual(Date.now() + WINDOW[vendor] * 1000);

      await server.approve(vendor);
      const secondResponse = await server.post(document, secondBodyFor(document, first, { vendor }), token);
      expect(secondResponse.status).toBe(200);
      expect(secondResponse.headers.get(AUTHENTICATION_ID_HEADER)).toBe(id);

      const issued = await readOk(id, token);
      expect(issued.status).toBe('issued');
      const link = issued.certificate;
      expect(link?.preSignedUrl).toMatch(/^http/);
      expect(link?.remainingSeconds).toBeGreaterThan(URL_TTL_SECONDS - 60);
      expect(link?.remainingSeconds).toBeLessThanOrEqual(URL_TTL_SECONDS);
      const pdf = await fetch(link?.preSignedUrl ?? '');
      expect(pdf.status).toBe(200);
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString('latin1'),
      ).toBe('%PDF-');

      // Read again later: the same end, never a longer one; past it, no link.
      clockOffsetMs = (URL_TTL_SECONDS - 60) * 1000;
      const later = await readOk(id, token);
      expect(later.certificate?.expiresAt).toBe(link?.expiresAt);
      expect(later.certificate?.preSignedUrl).toMatch(/^http/);
      expect(later.certificate?.remainingSeconds).toBeLessThanOrEqual(60);
      clockOffsetMs = (URL_TTL_SECONDS + 1) * 1000;
      expect(await readOk(id, token)).toMatchObject({
        status: 'issued',
        certificate: { preSignedUrl: null, expiresAt: link?.expiresAt, remainingSeconds: 0 },
      });
    });
  });

  it('reads expired past the window, and the second call then says how long the window is', async () => {
    const token = await server.tokenFor(newUser());
    const document = 'resident-certificate';
    const firstResponse = await server.post(document, bodyFor(document), token);
    const id = firstResponse.headers.get(AUTHENTICATION_ID_HEADER) ?? '';
    const first = await unwrap(document, firstResponse);
    clockOffsetMs = (WINDOW.VENDOR_A + 1) * 1000;

    expect(await readOk(id, token)).toMatchObject({ status: 'expired', certificate: null });
    const late = await server.post(document, secondBodyFor(document, first), token);
    expect(late.status).toBe(410);
    expect((await late.json()).error).toMatchObject({
      code: 'AUTH_EXPIRED',
      details: { approvalWindowSeconds: WINDOW.VENDOR_A },
    });
  });

  it('is 404 for another user and for an unknown id, 400 for a malformed one, 401 without a token', async () => {
    const owner = await server.tokenFor(newUser());
    const document = 'resident-abstract';
    const id = (await server.post(document, bodyFor(document), owner)).headers.get(AUTHENTICATION_ID_HEADER) ?? '';
    const stranger = await server.tokenFor(newUser());

    for (const [what, answer] of [
      ['another user', await read(id, stranger)],
      ['an unknown id', await read(randomUUID(), owner)],
    ] as const) {
      expect(answer.status, what).toBe(404);
      expect((await answer.json()).error.code, what).toBe('AUTHENTICATION_NOT_FOUND');
    }
    const malformed = await read('not-an-id', owner);
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe('VALIDATION_FAILED');
    expect((await read(id, undefined)).status).toBe(401);
    const notCertified = await server.tokenFor(newUser(), { certified: false });
    expect((await read(id, notCertified)).status).toBe(403);
  });
});
