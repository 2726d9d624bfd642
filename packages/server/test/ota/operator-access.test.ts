import { randomBytes } from 'node:crypto';
import type { AuditEvent, CreatedOperatorToken, OperatorTokenView } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperatorTokenStore } from '../../src/auth/operator-token-store.js';
import { describeEachEngine } from '../support/engines.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, TEST_RELEASE_TOKEN, type TestServer } from '../support/test-server.js';

/**
 * Operator access over HTTP (issue 19): roles decide who may change what, a revoked token is
 * refused at once, the release token keeps publishing but is no console login, the console's
 * cookie session needs its CSRF header, and every action is audited under the operator's name.
 */
let versions = 0;
const freshTrack = () =>
  ({ platform: 'android', runtimeVersion: `access-${Date.now()}-${versions++}`, channel: 'production' }) as const;
const launch = () =>
  fileOf(`console.log(${JSON.stringify(randomBytes(8).toString('hex'))});`, 'application/javascript', '.bundle');

describeEachEngine('operator access', (engine) => {
  let server: TestServer;
  let tokens: OperatorTokenStore;
  const issued: Record<'viewer' | 'releaser' | 'admin', { id: string; token: string }> = {} as never;

  beforeAll(async () => {
    server = await startTestServer(engine);
    tokens = new OperatorTokenStore(server.app.database.db);
    for (const role of ['viewer', 'releaser', 'admin'] as const) {
      const created = await tokens.create({ name: `${role}-1`, role }, { actor: 'test' });
      issued[role] = { id: created.id, token: created.token };
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const as = (token: string, path: string, init: RequestInit = {}) =>
    fetch(server.url + path, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
    });
  const post = (token: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    as(token, path, { method: 'POST', body: JSON.stringify(body), headers });
  const publish = (track: ReturnType<typeof freshTrack>, payload: Record<string, unknown> = {}) =>
    publishRelease(server, { ...track, launch: launch(), payload }).then(({ id }) => id);
  const audit = async (query: string): Promise<AuditEvent[]> => {
    const response = await server.authed(`/api/audit-events?${query}`);
    expect(response.status).toBe(200);
    return (await response.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AuditEvent);
  };

  /** Every mutating release-control request, against a track with a running 10 % rollout. */
  const mutations = async () => {
    const track = freshTrack();
    const first = await publish(track);
    const staged = await publish(track, { rollout: { percent: 10 } });
    return {
      track,
      first,
      staged,
      requests: [
        ['POST /api/updates/rollouts/:id', `/api/updates/rollouts/${staged}`, { action: 'percent', percent: 50 }],
        ['POST /api/updates/rollback', '/api/updates/rollback', { ...track, to: first }],
        ['POST /api/updates/directives', '/api/updates/directives', { ...track, type: 'rollBackToEmbedded' }],
        ['POST /api/updates/gc', '/api/updates/gc', { keepPerTrack: 1, dryRun: false }],
        ['POST /api/updates/release', '/api/updates/release', {}],
        ['POST /api/updates/assets', '/api/updates/assets', {}],
        ['POST /api/operator-tokens', '/api/operator-tokens', { name: 'intruder', role: 'admin' }],
      ] as const,
    };
  };

  it('a viewer reads everything and changes nothing (403 on every mutating route)', async () => {
    const { staged, requests } = await mutations();
    const viewer = issued.viewer.token;
    expect((await as(viewer, '/api/updates/releases')).status).toBe(200);
    expect((await as(viewer, `/api/updates/rollouts/${staged}`)).status).toBe(200);
    expect((await as(viewer, '/api/audit-events')).status).toBe(200);
    for (const [name, path, body] of requests) {
      const response = await post(viewer, path, body);
      expect({ name, status: response.status }).toEqual({ name, status: 403 });
      expect(await response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
    expect((await as(viewer, '/api/operator-tokens')).status).toBe(403);
    // Nothing moved: the rollout still runs at 10 %, and no audit event names the viewer.
    const rollout = (await (await as(viewer, `/api/updates/rollouts/${staged}`)).json()) as {
      rollout: { percent: number; state: string };
    };
    expect(rollout.rollout).toMatchObject({ percent: 10, state: 'running' });
    expect((await audit('limit=10000')).filter((event) => event.actor === 'operator:viewer-1')).toEqual([]);
  });

  it('a releaser widens a rollout, rolls back and rolls back to embedded, each audited under their name', async () => {
    const { track, first, staged, requests } = await mutations();
    const releaser = issued.releaser.token;
    const widened = await post(releaser, `/api/updates/rollouts/${staged}`, { action: 'percent', percent: 50 });
    expect(widened.status).toBe(200);
    // What the client claims as actor does not replace the operator's identity.
    const rolledBack = await post(releaser, '/api/updates/rollback', { ...track, to: first, actor: 'someone-else' });
    expect(rolledBack.status).toBe(201);
    const restored = (await rolledBack.json()) as { release: { id: string } };
    expect((await server.releaseStore.findById(restored.release.id))?.metadata.actor).toBe('operator:releaser-1');
    const directive = await post(releaser, '/api/updates/directives', { ...track, type: 'rollBackToEmbedded' });
    expect(directive.status).toBe(201);
    // GC, publishing and tokens are not a releaser's.
    for (const [name, path, body] of requests.filter(([name]) => /gc|release$|assets|operator-tokens/.test(name))) {
      expect({ name, status: (await post(releaser, path, body)).status }).toEqual({ name, status: 403 });
    }

    const events = await audit(
      `channel=${track.channel}&platform=${track.platform}&runtimeVersion=${track.runtimeVersion}`,
    );
    const byOperator = events.filter((event) => event.actor === 'operator:releaser-1');
    expect(byOperator.map((event) => event.type)).toEqual([
      'rollout.changed',
      'release.rolled_back',
      'directive.created',
    ]);
    for (const event of byOperator) {
      expect(event.details).toMatchObject({ operator: { kind: 'token', id: issued.releaser.id, via: 'bearer' } });
    }
  });

  it('an admin manages tokens over HTTP; a revoked token gets 401 at once, and its console session ends', async () => {
    const admin = issued.admin.token;
    const created = await post(admin, '/api/operator-tokens', { name: 'temp-releaser', role: 'releaser' });
    expect(created.status).toBe(201);
    const token = (await created.json()) as CreatedOperatorToken;
    expect(token.token).toMatch(/^ferry_op_[\w-]{43}$/);
    expect((await post(admin, '/api/operator-tokens', { name: 'temp-releaser', role: 'viewer' })).status).toBe(409);

    const listed = (await (await as(admin, '/api/operator-tokens')).json()) as { tokens: OperatorTokenView[] };
    expect(listed.tokens.find((t) => t.id === token.id)).toMatchObject({ name: 'temp-releaser', revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(token.token);
    // Stored hashed: the token itself is nowhere in its row.
    const row = await server.app.database.db
      .selectFrom('operator_tokens')
      .selectAll()
      .where('id', '=', token.id)
      .executeTakeFirst();
    expect(JSON.stringify(row)).not.toContain(token.token.slice('ferry_op_'.length));

    expect((await as(token.token, '/api/updates/releases')).status).toBe(200);
    const signIn = await consoleSignIn(token.token);
    expect(signIn.status).toBe(200);
    const cookie = cookieOf(signIn);

    const revoked = await as(admin, `/api/operator-tokens/${token.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as OperatorTokenView).revokedAt).not.toBeNull();
    const refused = await as(token.token, '/api/updates/releases');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    expect((await fetch(`${server.url}/api/console/session`, { headers: { cookie } })).status).toBe(401);
    expect((await fetch(`${server.url}/api/updates/releases`, { headers: { cookie } })).status).toBe(401);
    expect(
      (await as(admin, '/api/operator-tokens/00000000-0000-4000-8000-000000000000', { method: 'DELETE' })).status,
    ).toBe(404);

    const events = await audit('type=operator_token.created,operator_token.revoked');
    expect(events.filter((event) => event.details.tokenId === token.id)).toMatchObject([
      { type: 'operator_token.created', actor: 'operator:admin-1', details: { operator: { id: issued.admin.id } } },
      { type: 'operator_token.revoked', actor: 'operator:admin-1', details: { operator: { id: issued.admin.id } } },
    ]);
  });

  it('a token revoked through one instance is refused by another at once (no cache outlives a revocation)', async () => {
    const other = await startTestServer(engine, { database: server.database });
    try {
      const created = await tokens.create({ name: 'two-instances', role: 'viewer' }, { actor: 'test' });
      const read = (url: string) =>
        fetch(`${url}/api/updates/releases`, { headers: { authorization: `Bearer ${created.token}` } });
      expect((await read(server.url)).status).toBe(200);
      expect((await read(other.url)).status).toBe(200);
      const revoked = await as(issued.admin.token, `/api/operator-tokens/${created.id}`, { method: 'DELETE' });
      expect(revoked.status).toBe(200);
      expect((await read(other.url)).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('an unknown token, a made-up operator token and no token get 401', async () => {
    expect((await as('not-a-token-at-all-0123456789', '/api/updates/releases')).status).toBe(401);
    expect((await as(`ferry_op_${randomBytes(32).toString('base64url')}`, '/api/updates/releases')).status).toBe(401);
    expect((await fetch(`${server.url}/api/updates/releases`)).status).toBe(401);
  });

  it('the release token still publishes and controls releases, but is no console login and manages no tokens', async () => {
    const track = freshTrack();
    await publish(track); // publishRelease uses the release token
    const release = await post(TEST_RELEASE_TOKEN, '/api/updates/directives', { ...track, type: 'rollBackToEmbedded' });
    expect(release.status).toBe(201);
    const [event] = await audit(`type=directive.created&runtimeVersion=${track.runtimeVersion}`);
    expect(event).toMatchObject({ actor: 'release-token' });
    expect(event?.details).not.toHaveProperty('operator');

    const signIn = await consoleSignIn(TEST_RELEASE_TOKEN);
    expect(signIn.status).toBe(403);
    expect(await signIn.json()).toMatchObject({ error: { code: 'NOT_A_CONSOLE_LOGIN' } });
    expect(signIn.headers.get('set-cookie')).toBeNull();
    expect((await as(TEST_RELEASE_TOKEN, '/api/operator-tokens')).status).toBe(403);
  });

  describe('the console session', () => {
    it('signs in with a cookie that scripts cannot read, and needs the CSRF header to change anything', async () => {
      const { staged } = await mutations();
      const withoutHeader = await fetch(`${server.url}/api/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: issued.releaser.token }),
      });
      expect(withoutHeader.status).toBe(403);
      expect(await withoutHeader.json()).toMatchObject({ error: { code: 'CSRF_HEADER_REQUIRED' } });
      expect((await consoleSignIn(`ferry_op_${randomBytes(32).toString('base64url')}`)).status).toBe(401);

      const signIn = await consoleSignIn(issued.releaser.token);
      expect(signIn.status).toBe(200);
      expect(await signIn.json()).toMatchObject({ name: 'releaser-1', role: 'releaser', kind: 'token' });
      const setCookie = signIn.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(/^ferry_console=[\w-]{43};/);
      expect(setCookie).toMatch(/; HttpOnly/i);
      expect(setCookie).toMatch(/; SameSite=Strict/i);
      expect(setCookie).toMatch(/; Path=\//i);
      expect(setCookie).not.toMatch(/; Secure/i); // PUBLIC_URL is http here
      expect(setCookie).not.toContain(issued.releaser.token);
      const cookie = cookieOf(signIn);

      const me = await fetch(`${server.url}/api/console/session`, { headers: { cookie } });
      expect(await me.json()).toMatchObject({ name: 'releaser-1', role: 'releaser' });
      expect((await fetch(`${server.url}/api/updates/releases`, { headers: { cookie } })).status).toBe(200);

      const change = (headers: Record<string, string>) =>
        fetch(`${server.url}/api/updates/rollouts/${staged}`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ action: 'percent', percent: 30 }),
        });
      const forged = await change({});
      expect(forged.status).toBe(403);
      expect(await forged.json()).toMatchObject({ error: { code: 'CSRF_HEADER_REQUIRED' } });
      expect((await change({ 'x-ferry-console': '1' })).status).toBe(200);
      const [event] = (await audit(`type=rollout.changed&releaseId=${staged}`)).slice(-1);
      expect(event).toMatchObject({
        actor: 'operator:releaser-1',
        details: { to: { percent: 30 }, operator: { kind: 'token', id: issued.releaser.id, via: 'session' } },
      });
      const signedIn = await audit('type=console.signed_in');
      expect(signedIn.some((e) => e.actor === 'operator:releaser-1')).toBe(true);

      const signOut = await fetch(`${server.url}/api/console/session`, {
        method: 'DELETE',
        headers: { cookie, 'x-ferry-console': '1' },
      });
      expect(signOut.status).toBe(204);
      expect(signOut.headers.get('set-cookie')).toMatch(/^ferry_console=;/);
      expect((await fetch(`${server.url}/api/console/session`, { headers: { cookie } })).status).toBe(401);
      expect((await change({ 'x-ferry-console': '1' })).status).toBe(401);
    });

    it('a viewer signed in to the console still cannot change anything', async () => {
      const { staged } = await mutations();
      const cookie = cookieOf(await consoleSignIn(issued.viewer.token));
      const response = await fetch(`${server.url}/api/updates/rollouts/${staged}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-ferry-console': '1' },
        body: JSON.stringify({ action: 'complete' }),
      });
      expect(response.status).toBe(403);
    });
  });

  const consoleSignIn = (token: string) =>
    fetch(`${server.url}/api/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ferry-console': '1' },
      body: JSON.stringify({ token }),
    });
});

/** The cookie pair a browser would send back (name=value). */
const cookieOf = (response: Response): string => (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

describe('the console session cookie behind https', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { PUBLIC_URL: 'https://ferry.example.test' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is Secure and __Host- prefixed, so no other origin or subdomain can set or read it', async () => {
    const { token } = await new OperatorTokenStore(server.app.database.db).create(
      { name: 'viewer-https', role: 'viewer' },
      { actor: 'test' },
    );
    const signIn = await fetch(`${server.url}/api/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ferry-console': '1' },
      body: JSON.stringify({ token }),
    });
    expect(signIn.status).toBe(200);
    const setCookie = signIn.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^__Host-ferry_console=[\w-]{43};/);
    expect(setCookie).toMatch(/; Secure/i);
    expect(setCookie).not.toMatch(/; Domain=/i);
    const me = await fetch(`${server.url}/api/console/session`, { headers: { cookie: cookieOf(signIn) } });
    expect(await me.json()).toMatchObject({ name: 'viewer-https', role: 'viewer' });
  });
});
