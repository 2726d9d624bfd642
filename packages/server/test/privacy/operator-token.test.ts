import { afterAll, beforeAll, expect, it } from 'vitest';
import { OperatorTokenStore } from '../../src/auth/operator-token-store.js';
import { describeEachEngine } from '../support/engines.js';
import { startTestServer, TEST_RELEASE_TOKEN, type TestServer } from '../support/test-server.js';

describeEachEngine(
  'operator tokens and console sessions never reach a log, an error body or the database',
  (engine) => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(engine, { logLevel: 'trace' });
    });
    afterAll(async () => server?.close());

    it('holds across creating, signing in, using, misusing and revoking them, at trace level', async () => {
      const bodies: string[] = [];
      const statuses: number[] = [];
      const send = async (path: string, init: RequestInit = {}) => {
        const response = await fetch(server.url + path, init);
        bodies.push(await response.text());
        statuses.push(response.status);
        return response;
      };
      const json = { 'content-type': 'application/json', 'x-ferry-console': '1' };
      const { token: admin } = await new OperatorTokenStore(server.app.database.db).create(
        { name: 'root', role: 'admin' },
        { actor: 'test' },
      );
      // An admin makes a viewer token over HTTP: the answer carries it once.
      const created = await send('/api/operator-tokens', {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${admin}` },
        body: JSON.stringify({ name: 'vera', role: 'viewer' }),
      });
      const viewer = (JSON.parse(bodies.at(-1)!) as { token: string; id: string }).token;
      expect(created.status).toBe(201);
      const signIn = await send('/api/console/session', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ token: viewer }),
      });
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
      const sessionId = cookie.split('=')[1]!;
      await send('/api/console/tracks', { headers: { cookie } });
      // Misuse: a viewer changing things, a token in a body field, a wrong token, no CSRF header.
      await send('/api/updates/directives', {
        method: 'POST',
        headers: { ...json, cookie },
        body: JSON.stringify({ type: 'rollBackToEmbedded', channel: viewer }),
      });
      await send('/api/updates/directives', {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: '{}',
      });
      await send('/api/console/session', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ token: `${viewer}x` }),
      });
      await send('/api/console/session', { method: 'POST', headers: json, body: '{"token": broken' });
      await send('/api/console/session', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ token: TEST_RELEASE_TOKEN }),
      });
      const listed = (await (
        await fetch(`${server.url}/api/operator-tokens`, { headers: { authorization: `Bearer ${admin}` } })
      ).json()) as { tokens: Array<{ id: string; name: string }> };
      const vera = listed.tokens.find((t) => t.name === 'vera')!;
      await send(`/api/operator-tokens/${vera.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${admin}`, 'x-ferry-console': '1' },
      });
      await send('/api/console/tracks', { headers: { cookie } });

      // Every path ran: made, signed in, read, refused (role, CSRF, wrong token, bad body, release
      // token), revoked, and the revoked session refused.
      expect(statuses).toEqual([201, 200, 200, 403, 403, 401, 400, 403, 200, 401]);
      const secrets = [admin, viewer, `${viewer}x`, sessionId, TEST_RELEASE_TOKEN];
      expect(server.logs.lines.length).toBeGreaterThan(0);
      for (const secret of secrets) expect(server.logs.text).not.toContain(secret);
      // The one answer that carries a token is the one that made it (shown once); no other does.
      for (const body of bodies.slice(1)) for (const secret of secrets) expect(body).not.toContain(secret);

      const db = server.app.database.db;
      const rows = [
        ...(await db.selectFrom('operator_tokens').selectAll().execute()),
        ...(await db.selectFrom('operator_sessions').selectAll().execute()),
        ...(await db.selectFrom('audit_events').selectAll().execute()),
      ];
      expect(rows.length).toBeGreaterThan(2);
      for (const secret of secrets) expect(JSON.stringify(rows)).not.toContain(secret);
    });
  },
);
