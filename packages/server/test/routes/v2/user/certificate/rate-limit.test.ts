import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  bodyFor,
  type CertificateTestServer,
  newUser,
  startCertificateServer,
} from '../../../../support/certificates.js';
import { describeEachEngine } from '../../../../support/engines.js';

describeEachEngine('certificate rate limit (CERT_RATE_LIMIT_PER_MINUTE)', (engine) => {
  let server: CertificateTestServer;
  beforeAll(async () => {
    server = await startCertificateServer(engine, { env: { CERT_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(async () => server?.close());

  it('counts per user across the three endpoints: the fourth request in a minute is 429', async () => {
    const token = await server.tokenFor(newUser());
    for (const document of ['resident-certificate', 'resident-abstract', 'family-relations'] as const) {
      expect((await server.post(document, bodyFor(document), token)).status).toBe(200);
    }
    const calls = server.vendorCalls();
    const limited = await server.post('resident-certificate', bodyFor('resident-certificate'), token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await limited.json()).error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 3 } });
    expect(server.vendorCalls()).toBe(calls);
  });

  it('another user is not affected, and unauthenticated requests do not use up a user’s budget', async () => {
    const busy = await server.tokenFor(newUser());
    for (let i = 0; i < 3; i++) await server.post('resident-certificate', bodyFor('resident-certificate'), busy);
    expect((await server.post('resident-certificate', bodyFor('resident-certificate'), busy)).status).toBe(429);

    const other = await server.tokenFor(newUser());
    for (let i = 0; i < 5; i++) {
      expect((await server.post('resident-certificate', bodyFor('resident-certificate'), undefined)).status).toBe(401);
    }
    expect((await server.post('resident-certificate', bodyFor('resident-certificate'), other)).status).toBe(200);
  });
});
