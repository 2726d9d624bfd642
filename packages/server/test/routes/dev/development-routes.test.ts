import { randomUUID } from 'node:crypto';
import { DevelopmentSignInResponse, DevelopmentWebConfigResponse } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../support/engines.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const signIn = (server: TestServer, body?: unknown) =>
  fetch(`${server.url}/dev/sign-in`, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describeEachEngine('development routes', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => server.close());

  it('GET /dev/web-config hands the page the key the server decrypts with', async () => {
    const response = await fetch(`${server.url}/dev/web-config`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = DevelopmentWebConfigResponse.parse(await response.json());
    expect(Buffer.from(body.certAesKey, 'base64').equals(server.app.certificates.aesKey)).toBe(true);
  });

  it('POST /dev/sign-in gives a certified user token the certificate routes accept', async () => {
    const response = await signIn(server);
    expect(response.status).toBe(200);
    const { token, userId, expiresAt } = DevelopmentSignInResponse.parse(await response.json());
    expect(userId).toBe('dev-user');
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    // Accepted (not 401/403): an unknown assignment of this user is simply not found.
    const assignment = await fetch(`${server.url}/v2/user/assignments/${randomUUID()}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(assignment.status).toBe(404);
  });

  it('signs in as another user when asked, and the token is that user’s', async () => {
    const created = await server.authed('/v2/operator/assignments', {
      method: 'POST',
      body: JSON.stringify({ userId: 'someone-else', certificateVendor: 'VENDOR_B' }),
    });
    expect(created.status).toBe(201);
    const { assignment } = await created.json();
    const read = async (body?: unknown) => {
      const { token } = await (await signIn(server, body)).json();
      return fetch(`${server.url}/v2/user/assignments/${assignment.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
    };
    expect((await read({ userId: 'someone-else' })).status).toBe(200);
    expect((await read()).status).toBe(404);
  });

  it('rejects a malformed sign-in body with 400', async () => {
    const response = await signIn(server, { userId: '', admin: true });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('VALIDATION_FAILED');
  });
});

describe('development routes in production', () => {
  it('do not exist', async () => {
    const server = await startTestServer('sqlite', { configure: (config) => ({ ...config, production: true }) });
    try {
      expect((await fetch(`${server.url}/dev/web-config`)).status).toBe(404);
      expect((await signIn(server)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
