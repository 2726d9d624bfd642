import { randomUUID } from 'node:crypto';
import {
  allowedActions,
  ConsoleSession,
  type OperatorAction,
  type OperatorRole,
  refusalMessage,
  whoMayPerform,
} from '@ferry/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OperatorTokenStore } from '../../src/auth/operator-token-store.js';
import { describeEachEngine } from '../support/engines.js';
import { startTestServer, TEST_RELEASE_TOKEN, type TestServer } from '../support/test-server.js';

/**
 * A refused operator action says in words who may do it (read off `mayPerform`, the one rule), and
 * its details carry the roles, so a UI can hide or explain the action; the console's session lists
 * the actions its role may perform, by the same rule.
 */
const ROLES: OperatorRole[] = ['viewer', 'releaser', 'admin'];
const anId = randomUUID();
const track = { channel: 'production', platform: 'ios', runtimeVersion: '1.0.0(1)' } as const;

/** One request per action a route names; the access rule answers before the body is read. */
const ROUTES: Array<{ action: OperatorAction; method: string; path: string; body?: unknown }> = [
  { action: 'rollout.change', method: 'POST', path: `/api/updates/rollouts/${anId}`, body: { action: 'halt' } },
  { action: 'rollout.change', method: 'POST', path: '/api/updates/rollouts', body: { groupId: anId, action: 'halt' } },
  { action: 'rollback', method: 'POST', path: '/api/updates/rollback', body: { groupId: anId } },
  {
    action: 'directive.create',
    method: 'POST',
    path: '/api/updates/directives',
    body: { ...track, type: 'rollBackToEmbedded' },
  },
  { action: 'promote', method: 'POST', path: '/api/updates/promote', body: { groupId: anId, toChannel: 'production' } },
  { action: 'publish', method: 'POST', path: '/api/updates/release', body: {} },
  { action: 'gc', method: 'POST', path: '/api/updates/gc', body: { dryRun: true } },
  { action: 'tokens.manage', method: 'GET', path: '/api/operator-tokens' },
];

describeEachEngine('403 in words', (engine) => {
  let server: TestServer;
  const tokens = {} as Record<OperatorRole, string>;

  beforeAll(async () => {
    server = await startTestServer(engine);
    const store = new OperatorTokenStore(server.app.database.db);
    for (const role of ROLES)
      tokens[role] = (await store.create({ name: `${role}-words`, role }, { actor: 'test' })).token;
  });
  afterAll(async () => server?.close());

  const send = (token: string, route: (typeof ROUTES)[number]) =>
    fetch(server.url + route.path, {
      method: route.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(route.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(route.body === undefined ? {} : { body: JSON.stringify(route.body) }),
    });

  it('every refusal names who may, who is asking, and carries the roles that may', async () => {
    let refusals = 0;
    for (const role of ROLES) {
      for (const route of ROUTES) {
        if (allowedActions(role).includes(route.action)) continue;
        const response = await send(tokens[role], route);
        const body = await response.json();
        expect({ role, path: route.path, status: response.status }).toEqual({ role, path: route.path, status: 403 });
        expect(body.error).toEqual({
          code: 'FORBIDDEN',
          message: refusalMessage(role, route.action),
          details: {
            role,
            principal: role,
            action: route.action,
            requiredRoles: whoMayPerform(route.action).roles,
            releaseTokenMay: whoMayPerform(route.action).releaseToken,
          },
        });
        refusals++;
      }
    }
    // The viewer is refused all eight, the releaser publish, gc and tokens, the admin publish.
    expect(refusals).toBe(8 + 3 + 1);
  });

  it('reads as the brief asks: a viewer changing a rollout', async () => {
    const response = await send(tokens.viewer, ROUTES[0]!);
    expect((await response.json()).error).toMatchObject({
      message: 'Only a releaser or an admin may change a rollout; you are signed in as a viewer.',
      details: { requiredRoles: ['releaser', 'admin'] },
    });
  });

  it('the release token is told to use an operator token', async () => {
    const response = await send(TEST_RELEASE_TOKEN, ROUTES.at(-1)!);
    expect(response.status).toBe(403);
    expect((await response.json()).error).toMatchObject({
      message:
        'Only an admin may manage operator tokens; the CI release token may not (use an operator token with that role).',
      details: { principal: 'release-token', requiredRoles: ['admin'], releaseTokenMay: false },
    });
  });

  it('the console session lists the actions its role may perform, signed in and asked again', async () => {
    for (const role of ROLES) {
      const signIn = await fetch(`${server.url}/api/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ferry-console': '1' },
        body: JSON.stringify({ token: tokens[role] }),
      });
      expect(signIn.status).toBe(200);
      expect(ConsoleSession.parse(await signIn.json()).allowedActions).toEqual(allowedActions(role));
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
      const session = ConsoleSession.parse(
        await (await fetch(`${server.url}/api/console/session`, { headers: { cookie } })).json(),
      );
      expect({ role, actions: session.allowedActions }).toEqual({ role, actions: allowedActions(role) });
    }
    // What the console hides for a viewer: every change.
    expect(allowedActions('viewer')).toEqual(['read', 'console.sign-in']);
    expect(allowedActions('releaser')).toEqual(
      expect.arrayContaining(['rollout.change', 'rollback', 'directive.create', 'promote']),
    );
  });
});
