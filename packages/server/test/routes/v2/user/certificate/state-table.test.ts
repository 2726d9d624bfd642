import { secondCallField } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bodyFor,
  type CertificateTestServer,
  DOCUMENTS,
  newUser,
  secondBodyFor,
  startCertificateServer,
  unwrap,
  VENDORS,
} from '../../../../support/certificates.js';
import { describeEachEngine } from '../../../../support/engines.js';

// The spec's "Certificate issuance" state table, for every endpoint and every vendor, over HTTP.
describeEachEngine('certificate issuance states', (engine) => {
  let server: CertificateTestServer;
  beforeAll(async () => {
    server = await startCertificateServer(engine);
  });
  afterAll(async () => server?.close());

  describe.each(DOCUMENTS)('%s', (document) => {
    describe.each(VENDORS)('%s', (vendor) => {
      it('Not started → Awaiting approval → Issued, and a repeated second call answers the same PDF', async () => {
        const token = await server.tokenFor(newUser());

        // Not started → Awaiting user approval.
        const firstResponse = await server.post(document, bodyFor(document, { vendor }), token);
        expect(firstResponse.status).toBe(200);
        const first = await unwrap(document, firstResponse);
        if (secondCallField(vendor) === 'stepData') {
          expect(first).toEqual({ preSignedUrl: null, stepData: expect.any(String), twoWayInfo: null });
        } else {
          expect(first).toEqual({
            preSignedUrl: null,
            stepData: null,
            twoWayInfo: {
              jobIndex: expect.any(Number),
              threadIndex: expect.any(Number),
              jti: expect.any(String),
              twoWayTimestamp: expect.any(Number),
            },
          });
        }

        // The second call before the user approved: retryable.
        const early = await server.post(document, secondBodyFor(document, first, { vendor }), token);
        expect(early.status).toBe(409);
        expect(early.headers.get('retry-after')).toBe('2');
        expect((await early.json()).error).toMatchObject({ code: 'AUTH_PENDING', details: { retryable: true } });

        // Awaiting user approval → Issued.
        await server.approve(vendor);
        const secondResponse = await server.post(document, secondBodyFor(document, first, { vendor }), token);
        expect(secondResponse.status).toBe(200);
        const second = await unwrap(document, secondResponse);
        expect(second).toEqual({ preSignedUrl: expect.stringMatching(/^http/), stepData: null, twoWayInfo: null });

        const pdf = await fetch(second.preSignedUrl as string);
        expect(pdf.status).toBe(200);
        expect(pdf.headers.get('content-type')).toMatch(/^application\/pdf/);
        const bytes = Buffer.from(await pdf.arrayBuffer());
        expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

        // Retry safety: the same document with a fresh URL, and no vendor call.
        const callsBefore = server.vendorCalls();
        const again = await server.post(document, secondBodyFor(document, first, { vendor }), token);
        expect(again.status).toBe(200);
        const repeated = await unwrap(document, again);
        expect(repeated.preSignedUrl).toEqual(expect.stringMatching(/^http/));
        expect(server.vendorCalls()).toBe(callsBefore);
        const repeatedBytes = Buffer.from(await (await fetch(repeated.preSignedUrl as string)).arrayBuffer());
        expect(repeatedBytes.equals(bytes)).toBe(true);
      });
    });
  });
});
