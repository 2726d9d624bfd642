import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CertificateTestServer,
  newUser,
  startCertificateServer,
  TEST_OPERATOR_TOKEN,
} from '../../../support/certificates.js';
import { describeEachEngine } from '../../../support/engines.js';

describeEachEngine('assignments', (engine) => {
  let server: CertificateTestServer;
  beforeAll(async () => {
    server = await startCertificateServer(engine);
  });
  afterAll(async () => server?.close());

  const create = (body: unknown, token: string | null = TEST_OPERATOR_TOKEN) =>
    fetch(`${server.url}/v2/operator/assignments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const get = (id: string, token: string | undefined) =>
    fetch(`${server.url}/v2/user/assignments/${id}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  describe('POST /v2/operator/assignments', () => {
    it('creates an assignment for a user with a certificate vendor', async () => {
      const userId = newUser();
      const response = await create({ userId, certificateVendor: 'VENDOR_B', title: 'Family relations for the lease' });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({
        assignment: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          userId,
          certificateVendor: 'VENDOR_B',
          title: 'Family relations for the lease',
          createdAt: expect.stringMatching(/^\d{4}-/),
        },
      });
    });

    it.each([
      ['no token', null],
      ['a wrong token', 'wrong-operator-token-0123456789'],
    ])('%s → 401', async (_name, token) => {
      const response = await create({ userId: newUser(), certificateVendor: 'VENDOR_A' }, token);
      expect(response.status).toBe(401);
      expect((await response.json()).error.code).toBe('UNAUTHORIZED');
    });

    it('a user token is not an operator token', async () => {
      const response = await create(
        { userId: newUser(), certificateVendor: 'VENDOR_A' },
        await server.tokenFor(newUser()),
      );
      expect(response.status).toBe(401);
    });

    it.each([
      ['an unknown vendor', { userId: 'u', certificateVendor: 'NO_SUCH_VENDOR' }],
      ['no user', { certificateVendor: 'VENDOR_A' }],
      ['an empty user', { userId: ' ', certificateVendor: 'VENDOR_A' }],
      ['an unknown field', { userId: 'u', certificateVendor: 'VENDOR_A', owner: 'x' }],
    ])('%s → 400', async (_name, body) => {
      const response = await create(body);
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('GET /v2/user/assignments/:id', () => {
    it('answers the owner', async () => {
      const userId = newUser();
      const id = await server.createAssignment(userId, 'VENDOR_A');
      const response = await get(id, await server.tokenFor(userId));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        assignment: {
          id,
          certificateVendor: 'VENDOR_A',
          title: 'Submit your certificate',
          createdAt: expect.any(String),
        },
      });
    });

    it('is 404 for another user, exactly as for an id that does not exist', async () => {
      const id = await server.createAssignment(newUser(), 'VENDOR_B');
      const token = await server.tokenFor(newUser());
      const foreign = await get(id, token);
      const missing = await get('00000000-0000-4000-8000-000000000000', token);
      expect(foreign.status).toBe(404);
      expect(missing.status).toBe(404);
      expect((await foreign.json()).error.code).toBe('ASSIGNMENT_NOT_FOUND');
      expect((await missing.json()).error.code).toBe('ASSIGNMENT_NOT_FOUND');
    });

    it('needs a certified user token', async () => {
      const id = await server.createAssignment(newUser(), 'VENDOR_A');
      expect((await get(id, undefined)).status).toBe(401);
      expect((await get(id, await server.tokenFor(newUser(), { certified: false }))).status).toBe(403);
    });

    it('rejects an id that is not a UUID with 400', async () => {
      const response = await get('1%27%20or%201=1', await server.tokenFor(newUser()));
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('VALIDATION_FAILED');
    });
  });
});
