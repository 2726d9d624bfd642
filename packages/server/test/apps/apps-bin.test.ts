import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachEngine, type TestDatabase } from '../support/engines.js';
import { checkCodeSigningCertificate } from '../support/expo-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * `ferry-server apps` from the built bin (what an installed server runs; `npm run build` first), on
 * the database a running server uses: an app it creates is served at once at its own URL, with its
 * own certificate, and its release token publishes only to it.
 */
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/ferry-server.js');
const run = promisify(execFile);
const SECRET = randomBytes(32).toString('base64');

describeEachEngine('ferry-server apps (built bin)', (engine) => {
  let database: TestDatabase;
  let server: TestServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    if (!fs.existsSync(path.resolve(path.dirname(bin), '../dist/apps-command.js'))) {
      throw new Error('packages/server/dist is missing or stale: run `npm run build` first');
    }
    database = await createTestDatabase(engine);
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      APP_KEYS_SECRET: SECRET,
      // Development defaults of the command go to a DATA_DIR of the test's, never the checkout's.
      ...(engine === 'postgres'
        ? { DATABASE_URL: database.location, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-apps-bin-')) }
        : { DATA_DIR: path.dirname(database.location) }),
    };
    server = await startTestServer(engine, { database, env: { APP_KEYS_SECRET: SECRET } });
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

  it('creates an app the running server serves at its own URL, with its own certificate and token', async () => {
    const { stdout } = await ferryServer('apps', 'create', 'shop', '--name', 'Shop', '--json');
    const created = JSON.parse(stdout) as {
      app: { slug: string; manifestPath: string };
      releaseToken: string;
      certificate: string;
    };
    expect(created.app).toMatchObject({ slug: 'shop', manifestPath: '/api/apps/shop/manifest' });
    checkCodeSigningCertificate(created.certificate);
    expect(created.certificate).not.toBe(server.certificatePem);
    // Served at once (no release yet: 204), and its code-signing endpoint names its certificate.
    const manifest = await fetch(`${server.url}/api/apps/shop/manifest`, {
      headers: { 'expo-platform': 'ios', 'expo-runtime-version': '1.0.0', 'expo-channel-name': 'production' },
    });
    expect(manifest.status).toBe(204);
    const signing = await fetch(`${server.url}/api/apps/shop/code-signing?nonce=${'n'.repeat(16)}`);
    expect(((await signing.json()) as { certificate: string }).certificate).toBe(created.certificate);
    // Its token reads its releases, and is refused on the default app.
    const own = await fetch(`${server.url}/api/updates/releases`, {
      headers: { authorization: `Bearer ${created.releaseToken}` },
    });
    expect(own.status).toBe(200);
    const other = await fetch(`${server.url}/api/updates/releases`, {
      headers: { authorization: `Bearer ${created.releaseToken}`, 'ferry-app': 'default' },
    });
    expect(other.status).toBe(403);

    const listed = JSON.parse((await ferryServer('apps', 'list', '--json')).stdout) as {
      apps: Array<{ slug: string }>;
    };
    expect(listed.apps.map((app) => app.slug)).toEqual(['default', 'shop']);
    expect(await fails('apps', 'create', 'shop')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('exists already'),
    });
    expect(await fails('apps', 'create', 'Not_A_Slug')).toMatchObject({ code: 2 });
    expect(await fails('apps', 'archive', 'default')).toMatchObject({ code: 2 });

    // A second release token, then archiving: devices still served, nothing published.
    const token = (await ferryServer('apps', 'token', 'shop', '--name', 'ci-2')).stdout
      .trim()
      .split('\n')
      .at(-1)!
      .trim();
    await ferryServer('apps', 'archive', 'shop');
    // The server reads an app's row again within seconds (apps/app-registry.ts): until then a change
    // is admitted and its empty body refused (400); from then on the archive refuses it first (403).
    await expect
      .poll(async () => {
        const answer = await fetch(`${server.url}/api/updates/directives`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        });
        return answer.status;
      })
      .toBe(403);
    expect(
      (
        await fetch(`${server.url}/api/apps/shop/manifest`, {
          headers: { 'expo-platform': 'ios', 'expo-runtime-version': '1.0.0', 'expo-channel-name': 'production' },
        })
      ).status,
    ).toBe(204);
  });
});
