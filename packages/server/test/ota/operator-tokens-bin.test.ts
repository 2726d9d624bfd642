import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { OperatorTokenView } from '@ferry/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachEngine, type TestDatabase } from '../support/engines.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * `ferry-server tokens` from the built bin (what an installed server runs; `npm run build` first),
 * on the database a running server uses: the token it prints works at once, and its revocation is
 * refused by the running server on the next request.
 */
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/ferry-server.js');
const run = promisify(execFile);

describeEachEngine('ferry-server tokens (built bin)', (engine) => {
  let database: TestDatabase;
  let server: TestServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    if (!fs.existsSync(path.resolve(path.dirname(bin), '../dist/tokens-command.js'))) {
      throw new Error('packages/server/dist is missing or stale: run `npm run build` first');
    }
    database = await createTestDatabase(engine);
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...(engine === 'postgres' ? { DATABASE_URL: database.location } : { DATA_DIR: path.dirname(database.location) }),
    };
    // The command creates the tables itself (migrations first), before any server ran on the database.
    await ferryServer('tokens', 'list');
    server = await startTestServer(engine, { database });
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  const ferryServer = async (...args: string[]) => run(process.execPath, [bin, ...args], { env });
  const fails = (...args: string[]) =>
    ferryServer(...args).then(
      () => {
        throw new Error(`ferry-server ${args.join(' ')} succeeded`);
      },
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );

  it('creates a token shown once, lists it without the token, and revokes it for the running server', async () => {
    const created = await ferryServer('tokens', 'create', '--name', 'ops-admin', '--role', 'admin');
    const token = /^\s+(ferry_op_[\w-]{43})$/m.exec(created.stdout)?.[1];
    expect(token).toBeDefined();
    const id = /id ([0-9a-f-]{36})/.exec(created.stdout)?.[1];

    const answer = await fetch(`${server.url}/api/operator-tokens`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);

    const listed = await ferryServer('tokens', 'list', '--json');
    expect(listed.stdout).not.toContain(token);
    const tokens = JSON.parse(listed.stdout) as OperatorTokenView[];
    expect(tokens).toMatchObject([{ id, name: 'ops-admin', role: 'admin', revokedAt: null }]);
    expect(tokens[0]?.createdBy).toMatch(/^ferry-server/);
    expect(tokens[0]?.lastUsedAt).not.toBeNull();
    const table = await ferryServer('tokens', 'list');
    expect(table.stdout).toMatch(/^ID\s+NAME\s+ROLE/);
    expect(table.stdout).toContain('ops-admin');

    expect(await fails('tokens', 'create', '--name', 'ops-admin', '--role', 'viewer')).toMatchObject({ code: 1 });
    expect(await fails('tokens', 'create', '--name', 'someone', '--role', 'root')).toMatchObject({ code: 2 });
    expect(await fails('tokens', 'revoke', 'nobody')).toMatchObject({ code: 1 });

    const revoked = await ferryServer('tokens', 'revoke', 'ops-admin');
    expect(revoked.stdout).toContain(`Revoked operator token ops-admin (${id})`);
    const refused = await fetch(`${server.url}/api/operator-tokens`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(401);

    const events = (
      await (await server.authed('/api/audit-events?type=operator_token.created,operator_token.revoked')).text()
    )
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; actor: string });
    expect(events.map((event) => event.type)).toEqual(['operator_token.created', 'operator_token.revoked']);
    expect(events.every((event) => event.actor.startsWith('ferry-server'))).toBe(true);
  });
});
