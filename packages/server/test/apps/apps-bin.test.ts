import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachEngine, type TestDatabase } from '../support/engines.js';
import { checkCodeSigningCertificate, checkManifestLikeExpo, clientHeaders } from '../support/expo-client.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * `ferry-server apps` from the built bin (what an installed server runs; `npm run build` first), on
 * the database a running server uses: an app it creates is served at once at its own URL, with its
 * own certificate, and its release token publishes only to it.
 */
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/ferry-server.js');
const run = promisify(execFile);
const secret = () => randomBytes(32).toString('base64');
const SECRET = secret();
const TRACK = { channel: 'production', platform: 'ios', runtimeVersion: '1.0.0' } as const;

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
    // A short manifest TTL: a key rotated by the command is found when a track loads again.
    server = await startTestServer(engine, {
      database,
      env: { APP_KEYS_SECRET: SECRET, MANIFEST_CACHE_TTL_SECONDS: '1' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  const ferryServer = async (...args: string[]) => run(process.execPath, [bin, ...args], { env });
  const withSecrets =
    (current: string, previous?: string) =>
    async (...args: string[]) =>
      run(process.execPath, [bin, ...args], {
        env: { ...env, APP_KEYS_SECRET: current, ...(previous ? { APP_KEYS_PREVIOUS_SECRET: previous } : {}) },
      });
  const failure = (running: Promise<unknown>, args: string[]) =>
    running.then(
      () => {
        throw new Error(`ferry-server ${args.join(' ')} succeeded`);
      },
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
  const fails = (...args: string[]) => failure(ferryServer(...args), args);

  /** What a device of the app gets, checked as expo-updates checks it against a certificate. */
  const deviceVerifies = async (on: TestServer, slug: string, certificatePem: string) => {
    const response = await fetch(`${on.url}/api/apps/${slug}/manifest`, { headers: clientHeaders('expo', TRACK) });
    const answer = {
      status: response.status,
      headers: response.headers,
      body: Buffer.from(await response.arrayBuffer()),
    };
    return checkManifestLikeExpo('expo', answer, { certificatePem, keyId: 'main' }).then(
      (result) => result.kind,
      (error: Error) => `rejected: ${error.message}`,
    );
  };
  const sealedKeys = async () =>
    Object.fromEntries(
      (await server.app.database.db.selectFrom('apps').select(['slug', 'signing_key']).execute()).map((row) => [
        row.slug,
        row.signing_key,
      ]),
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

  it('rotates an app key the running server follows, and reseals every key under a new APP_KEYS_SECRET', async () => {
    const created = JSON.parse((await ferryServer('apps', 'create', 'games', '--json')).stdout) as {
      releaseToken: string;
      certificate: string;
    };
    const asGames = {
      ...server,
      authed: (p: string, init: RequestInit = {}) =>
        server.authed(p, { ...init, headers: { authorization: `Bearer ${created.releaseToken}` } }),
    };
    await publishRelease(asGames, {
      ...TRACK,
      launch: fileOf('console.log("games");\n', 'application/javascript', '.bundle'),
    });
    expect(await deviceVerifies(server, 'games', created.certificate)).toBe('update');

    // Rotated by the command, outside the server: its devices get manifests of the new key.
    const rotated = (await ferryServer('apps', 'rotate-key', 'games')).stdout;
    const certificate = rotated.slice(rotated.indexOf('-----BEGIN CERTIFICATE-----'));
    checkCodeSigningCertificate(certificate);
    await expect.poll(() => deviceVerifies(server, 'games', certificate)).toBe('update');
    expect(await deviceVerifies(server, 'games', created.certificate)).toMatch(/^rejected/);

    // A new secret. Keys that open with neither secret given: nothing changes.
    const before = await sealedKeys();
    const refused = await failure(withSecrets(secret(), secret())('apps', 'reseal'), ['apps', 'reseal']);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('nothing was changed') });
    expect(refused.stderr).toContain('app games');
    expect(await sealedKeys()).toEqual(before);

    // With the old one as the previous secret: every app key is sealed with the new one, once.
    const NEXT = secret();
    const resealed = (await withSecrets(NEXT, SECRET)('apps', 'reseal')).stdout;
    expect(resealed).toContain('Resealed 2 app key(s) with APP_KEYS_SECRET (games, shop); 0 already were');
    const after = await sealedKeys();
    expect(after.default).toBeNull();
    for (const slug of ['games', 'shop']) expect(after[slug]).not.toBe(before[slug]);
    expect((await withSecrets(NEXT)('apps', 'reseal')).stdout).toContain(
      'Resealed 0 app key(s) with APP_KEYS_SECRET; 2 already were',
    );

    // The running server keeps signing with the key it opened; one started with only the new secret opens it.
    expect(await deviceVerifies(server, 'games', certificate)).toBe('update');
    const next = await startTestServer(engine, { database, env: { APP_KEYS_SECRET: NEXT } });
    try {
      expect(await deviceVerifies(next, 'games', certificate)).toBe('update');
    } finally {
      await next.close();
    }
  });
});
