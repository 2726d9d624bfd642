import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuditEvent } from '@ferry/contracts';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Operator single sign-on (CONSOLE_OIDC_*): a JWT from the identity provider, verified against its
 * JWKS (served here by a local HTTP server), acts with the role its claim names. Run on SQLite
 * only: what it stores (a console session) is the same code the token suites run on both engines.
 */
const ISSUER = 'https://idp.example.test/';
const AUDIENCE = 'ferry-console';

describe('operator single sign-on [sqlite]', () => {
  let server: TestServer;
  let jwks: http.Server;
  const keys = generateKeyPair('ES256');
  const strangerKeys = generateKeyPair('ES256');

  beforeAll(async () => {
    const { publicKey } = await keys;
    const body = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] });
    jwks = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    server = await startTestServer('sqlite', {
      env: {
        CONSOLE_OIDC_JWKS_URL: `http://127.0.0.1:${port}/jwks.json`,
        CONSOLE_OIDC_ISSUER: ISSUER,
        CONSOLE_OIDC_AUDIENCE: AUDIENCE,
        CONSOLE_OIDC_ROLE_CLAIM: 'groups',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => jwks?.close(resolve));
  });

  const jwt = async (claims: Record<string, unknown>, options: { audience?: string; stranger?: boolean } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(options.audience ?? AUDIENCE)
      .setSubject(String(claims.sub ?? 'user-1'))
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign((await (options.stranger ? strangerKeys : keys)).privateKey);
  const post = (token: string, path: string, body: unknown) =>
    fetch(server.url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const stagedRelease = async () => {
    const track = { platform: 'ios', runtimeVersion: `oidc-${Date.now()}`, channel: 'production' } as const;
    const launch = fileOf(`console.log(${Date.now()})`, 'application/javascript', '.bundle');
    await publishRelease(server, { ...track, launch });
    const launch2 = fileOf(`console.log('${Date.now()}-2')`, 'application/javascript', '.bundle');
    return (await publishRelease(server, { ...track, launch: launch2, payload: { rollout: { percent: 10 } } })).id;
  };

  it('a releaser from the identity provider changes a rollout, audited under their name and subject', async () => {
    const staged = await stagedRelease();
    const token = await jwt({ sub: 'u-42', email: 'carol@example.test', groups: ['staff', 'viewer', 'releaser'] });
    const response = await post(token, `/api/updates/rollouts/${staged}`, { action: 'percent', percent: 40 });
    expect(response.status).toBe(200);
    const lines = (await (await server.authed(`/api/audit-events?type=rollout.changed&releaseId=${staged}`)).text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AuditEvent);
    expect(lines).toMatchObject([
      { actor: 'operator:carol@example.test', details: { operator: { kind: 'oidc', id: 'u-42', via: 'bearer' } } },
    ]);
  });

  it('a viewer may read but not change; a token without a role, for another audience or signed by another key is refused', async () => {
    const staged = await stagedRelease();
    const viewer = await jwt({ sub: 'u-1', groups: 'viewer' });
    expect(
      (await fetch(`${server.url}/api/updates/releases`, { headers: { authorization: `Bearer ${viewer}` } })).status,
    ).toBe(200);
    expect((await post(viewer, `/api/updates/rollouts/${staged}`, { action: 'complete' })).status).toBe(403);

    const roleless = await post(await jwt({ sub: 'u-2', groups: ['staff'] }), `/api/updates/rollouts/${staged}`, {
      action: 'complete',
    });
    expect(roleless.status).toBe(403);
    expect(await roleless.json()).toMatchObject({ error: { code: 'NO_OPERATOR_ROLE' } });
    const otherAudience = await jwt({ sub: 'u-3', groups: 'admin' }, { audience: 'someone-else' });
    expect((await post(otherAudience, `/api/updates/rollouts/${staged}`, { action: 'complete' })).status).toBe(401);
    const forged = await jwt({ sub: 'u-4', groups: 'admin' }, { stranger: true });
    expect((await post(forged, `/api/updates/rollouts/${staged}`, { action: 'complete' })).status).toBe(401);
  });

  it('signs in to the console with an identity token; the session ends no later than the token', async () => {
    const token = await jwt({ sub: 'u-5', email: 'dan@example.test', groups: 'admin' });
    const response = await fetch(`${server.url}/api/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ferry-console': '1' },
      body: JSON.stringify({ token }),
    });
    expect(response.status).toBe(200);
    const session = (await response.json()) as { name: string; role: string; kind: string; expiresAt: string };
    expect(session).toMatchObject({ name: 'dan@example.test', role: 'admin', kind: 'oidc' });
    expect(Date.parse(session.expiresAt)).toBeLessThanOrEqual(Date.now() + 10 * 60 * 1000 + 1000);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const tokens = await fetch(`${server.url}/api/operator-tokens`, { headers: { cookie } });
    expect(tokens.status).toBe(200);
  });
});
