/**
 * The server as the Docker image holds it: scripts/build-server-bundle.sh (the script the
 * Dockerfile's build stage runs) makes a runtime folder outside this checkout, and the test starts
 * it with plain `node` and production dependencies only, as the image's CMD does.
 *
 * Slow (packs three packages and installs the server's production dependencies, then installs
 * them again without the optional better-sqlite3): every wait is on a process's end or on
 * readiness; the only limits are the hang guards of test/support/hang-guard.cjs (the build's hook
 * gets the slow one).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../packages/server/src/signing/development-signing-key.js';
import { createTestDatabase, describeEachEngine } from '../../packages/server/test/support/engines.js';
import { clientHeaders } from '../../packages/server/test/support/expo-client.js';
import {
  bundleText,
  downloadLaunchAssetLikeExpo,
  settledPatches,
} from '../../packages/server/test/support/patch-client.js';
import { fileOf, hashOfBytes, publishRelease } from '../../packages/server/test/support/publisher.js';
import type { TestServer } from '../../packages/server/test/support/test-server.js';
import { REPO_ROOT } from '../../scripts/local-registry.js';
import {
  cleanEnv,
  freePort,
  installedPackages,
  killAll,
  runOk,
  start,
  waitUntilReady,
} from '../e2e/support/sandbox.js';
import { SLOW_HANG_GUARD_MS } from '../support/hang-guard.cjs';
import { startAndStop } from '../support/stopping.js';

const DEV_ONLY = ['typescript', 'tsx', 'vitest', 'vite', 'esbuild', 'jest', 'playwright', 'verdaccio', 'tsdown'];
const isDevOnly = (name: string) =>
  DEV_ONLY.includes(name) ||
  name.startsWith('@biomejs/') ||
  name.startsWith('@playwright/') ||
  name.startsWith('@vitest/');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bundle-test-'));
const bundle = path.join(work, 'runtime');
const bin = path.join(bundle, 'node_modules', '@ferry', 'server', 'bin', 'ferry-server.js');

/** The image's environment, with nothing of this checkout's (no npm_*, no NODE_OPTIONS). */
const serverEnv = (extra: Record<string, string>) => {
  const env = cleanEnv(extra);
  for (const key of Object.keys(env)) {
    if (/^(OTA_|CERT_|AUTH_|VENDOR_|DATABASE_|REDIS_|OBJECT_|S3_|FERRY_)/.test(key)) delete env[key];
  }
  return { ...env, ...extra };
};

async function startBundle(env: Record<string, string>, options: { folder?: string; port?: number } = {}) {
  const folder = options.folder ?? bundle;
  const port = options.port ?? (await freePort());
  const server = start(process.execPath, [path.join(folder, path.relative(bundle, bin))], {
    cwd: folder,
    env: serverEnv({ HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...env }),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady(`${url}/readyz`, server.exited, server.output);
  return { url, server };
}

beforeAll(async () => {
  await runOk('bash', [path.join(REPO_ROOT, 'scripts', 'build-server-bundle.sh'), bundle], {
    cwd: work,
    env: cleanEnv(),
  });
}, SLOW_HANG_GUARD_MS);

afterAll(() => {
  killAll();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('scripts/build-server-bundle.sh', () => {
  it('holds the server with production dependencies only', () => {
    const names = installedPackages(bundle).map((found) => found.name);
    expect(names).toEqual(expect.arrayContaining(['@ferry/server', '@ferry/contracts', '@ferry/dev-tools', 'fastify']));
    expect(names.filter(isDevOnly)).toEqual([]);
    // The server package carries its built JavaScript, the web funnel and the console, no sources or tests.
    const server = path.join(bundle, 'node_modules', '@ferry', 'server');
    expect(fs.existsSync(path.join(server, 'dist', 'main.js'))).toBe(true);
    expect(fs.existsSync(path.join(server, 'web', 'index.html'))).toBe(true);
    expect(fs.existsSync(path.join(server, 'console', 'index.html'))).toBe(true);
    expect(fs.existsSync(path.join(server, 'src'))).toBe(false);
  });

  it('ferry-server --version prints the package version', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'packages/server/package.json'), 'utf8'));
    const result = await runOk(process.execPath, [bin, '--version'], { cwd: bundle, env: serverEnv({}) });
    expect(result.stdout.trim()).toBe(version);
  });

  const keys = path.join(work, 'keys');
  const RELEASE_TOKEN = 'bundle-test-release-token-0123456789';
  const production = () => ({
    NODE_ENV: 'production',
    FERRY_AREAS: 'ota',
    DATA_DIR: path.join(work, 'production-data'),
    OTA_RELEASE_TOKEN: RELEASE_TOKEN,
    OTA_SIGNING_KEY_PATH: path.join(keys, 'private-key.pem'),
    OTA_SIGNING_CERT_PATH: path.join(keys, 'certificate.pem'),
    OBJECT_URL_SIGNING_SECRET: 'bundle-test-object-url-secret-0123456789',
  });

  it('starts in production with the OTA variables alone, serves, and exits 0 on SIGTERM', async () => {
    fs.mkdirSync(keys);
    const signing = generateSigningKey('Ferry bundle test');
    fs.writeFileSync(path.join(keys, 'private-key.pem'), signing.privateKeyPem);
    fs.writeFileSync(path.join(keys, 'certificate.pem'), signing.certificatePem);
    const { url, server } = await startBundle(production());
    expect(server.output()).toContain('areas: ota on, certificates off');

    const baseline = await fetch(
      `${url}/api/updates/baseline-fingerprint?channel=production&platform=ios&runtimeVersion=1.0.0(1)`,
    );
    // The OTA routes are on: no release yet on this track (not "no route").
    expect(baseline.status).toBe(404);
    expect(await baseline.json()).toMatchObject({ error: { details: { platform: 'ios' } } });
    const certificate = await fetch(`${url}/v2/user/certificate/resident-certificate`, { method: 'POST' });
    expect(certificate.status).toBe(404);
    expect(await certificate.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    // The release console it carries, under its strict policy.
    const consolePage = await fetch(`${url}/console/`);
    expect(consolePage.status).toBe(200);
    expect(consolePage.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await consolePage.text()).toContain('<div id="root">');

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('makes bundle patches with the native addon it carries, and serves them', async () => {
    const { url, server } = await startBundle(production());
    const authed = (route: string, init: RequestInit = {}) =>
      fetch(url + route, {
        ...init,
        headers: { authorization: `Bearer ${RELEASE_TOKEN}`, 'content-type': 'application/json', ...init.headers },
      });
    const client = { url, authed } as unknown as TestServer;
    const track = { channel: 'production', platform: 'ios', runtimeVersion: 'bundle-patches' } as const;
    const first = Buffer.from(bundleText(2_000));
    const second = Buffer.from(first.toString().replace('const _', 'const bundled_'));
    const launch = (bytes: Buffer) => fileOf(bytes, 'application/javascript', '.bundle');
    const a = await publishRelease(client, { ...track, launch: launch(first) });
    const b = await publishRelease(client, { ...track, launch: launch(second) });
    const [patch] = await settledPatches(client, track, b.id);
    expect(patch).toMatchObject({ state: 'ready' });
    const download = await downloadLaunchAssetLikeExpo(
      `${url}/objects/updates/${track.channel}/${track.runtimeVersion}/assets/${hashOfBytes(second)}`,
      { currentUpdateId: a.id, requestedUpdateId: b.id, runningBundle: first },
      hashOfBytes(second),
    );
    expect(download.kind).toBe('patch');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('restarted on a database with a release, warms its manifest path up before it reports ready, then serves it', async () => {
    const first = await startBundle(production());
    const port = Number(new URL(first.url).port);
    const authed = (route: string, init: RequestInit = {}) =>
      fetch(first.url + route, {
        ...init,
        headers: { authorization: `Bearer ${RELEASE_TOKEN}`, 'content-type': 'application/json', ...init.headers },
      });
    const track = { channel: 'production', platform: 'android', runtimeVersion: 'bundle-1' } as const;
    const launch = fileOf('console.log("bundle test");', 'application/javascript', '.bundle');
    const { id } = await publishRelease({ url: first.url, authed } as unknown as TestServer, { ...track, launch });
    first.server.child.kill('SIGTERM');
    expect(await first.server.exited).toBe(0);

    // Restarted as a deployment restarts: same PUBLIC_URL, so its stored signatures are current.
    const { url, server } = await startBundle(production(), { port });
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const warmed = lines.findIndex((line) => line.msg === 'manifest path warmed up');
    expect(lines[warmed]).toMatchObject({ sent: 2000, answered: 2000, stopped: false });
    // Once listening, and before /readyz answered 200 (startBundle waited for it).
    expect(warmed).toBeGreaterThan(lines.findIndex((line) => String(line.msg).startsWith('Server listening')));
    const manifest = await fetch(`${url}/api/updates/manifest`, { headers: clientHeaders('expo', track) });
    expect(manifest.status).toBe(200);
    expect(await manifest.text()).toContain(`"id":"${id}"`);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  describe('stops on SIGTERM and SIGINT however it was started (test/support/stopping.ts)', () => {
    const dotBin = {
      way: 'node node_modules/.bin/ferry-server',
      command: 'node',
      args: ['node_modules/.bin/ferry-server'],
    };
    // The image's command, which the Helm chart runs too (it sets no command of its own).
    const image = {
      way: 'the image’s command',
      command: 'node',
      args: ['node_modules/@ferry/server/bin/ferry-server.js'],
    };
    const npmStart = { way: 'npm start (the folder’s `exec ferry-server`)', command: 'npm', args: ['start'] };
    it.each([
      { ...dotBin, signal: 'SIGTERM' },
      { ...dotBin, signal: 'SIGINT' },
      { ...image, signal: 'SIGINT' },
      { ...npmStart, signal: 'SIGTERM' },
      { ...npmStart, signal: 'SIGINT' },
    ] as const)('$way, $signal sent to it: the server exits 0', async ({ command, args, signal }) => {
      const { output, exitCode } = await startAndStop(command, [...args], {
        cwd: bundle,
        work,
        signal,
        target: 'process',
      });
      expect(output).toContain(`"signal":"${signal}"`);
      expect(await exitCode).toBe(0);
    });

    it('npx ferry-server, SIGTERM sent to npm: npm’s shell dies without passing it on, and the server stops on its own', async () => {
      const { output } = await startAndStop('npx', ['ferry-server'], {
        cwd: bundle,
        work,
        signal: 'SIGTERM',
        target: 'process',
      });
      expect(output).toContain('"signal":"parent exited"');
    });

    it('npx ferry-server, Ctrl-C (SIGINT to the process group): the server stops', async () => {
      const { output } = await startAndStop('npx', ['ferry-server'], {
        cwd: bundle,
        work,
        signal: 'SIGINT',
        target: 'group',
      });
      expect(output).toContain('"signal":"SIGINT"');
    });
  });

  it('starts in development on its embedded defaults and serves the web funnel it carries', async () => {
    const { url, server } = await startBundle({ DATA_DIR: path.join(work, 'development-data') });
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});

/**
 * better-sqlite3 is an optional dependency of @ferry/server: a PostgreSQL deployment installs the
 * same packed packages with `npm install --omit=optional` and carries no SQLite at all. Installed
 * once for both engines (the tarballs build-server-bundle.sh packed).
 */
const lean = path.join(work, 'lean');
let leanInstall: Promise<unknown> | undefined;
const installLean = () => {
  leanInstall ??= (async () => {
    fs.mkdirSync(lean);
    fs.cpSync(path.join(bundle, 'packages'), path.join(lean, 'packages'), { recursive: true });
    fs.copyFileSync(path.join(bundle, 'package.json'), path.join(lean, 'package.json'));
    await runOk('npm', ['install', '--omit=dev', '--omit=optional', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: lean,
      env: cleanEnv(),
    });
  })();
  return leanInstall;
};

describeEachEngine('@ferry/server installed with --omit=optional', (engine) => {
  beforeAll(installLean, SLOW_HANG_GUARD_MS);

  it('holds no better-sqlite3 (the default install has it)', async () => {
    expect(installedPackages(lean).map((found) => found.name)).not.toContain('better-sqlite3');
    expect(installedPackages(bundle).map((found) => found.name)).toContain('better-sqlite3');
  });

  if (engine === 'postgres') {
    it('starts on PostgreSQL, serves, and exits 0 on SIGTERM', async () => {
      const database = await createTestDatabase('postgres');
      try {
        const { url, server } = await startBundle(
          { DATABASE_URL: database.location, DATABASE_POOL_SIZE: '2', DATA_DIR: path.join(work, 'lean-data') },
          { folder: lean },
        );
        const ready = await fetch(`${url}/readyz`);
        expect(ready.status).toBe(200);
        await ready.arrayBuffer();
        const baseline = await fetch(
          `${url}/api/updates/baseline-fingerprint?channel=production&platform=ios&runtimeVersion=1.0.0(1)`,
        );
        expect(baseline.status).toBe(404);
        await baseline.arrayBuffer();
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      } finally {
        await database.drop();
      }
    });
  } else {
    it('configured for SQLite, stops at start-up saying what is missing and what to do', async () => {
      const port = await freePort();
      const server = start(process.execPath, [path.join(lean, path.relative(bundle, bin))], {
        cwd: lean,
        env: serverEnv({ HOST: '127.0.0.1', PORT: String(port), DATA_DIR: path.join(work, 'lean-sqlite-data') }),
      });
      // Readiness or the exit, whichever comes first: a server that started anyway fails at once.
      const ready = await waitUntilReady(`http://127.0.0.1:${port}/readyz`, server.exited, server.output).then(
        () => true,
        () => false,
      );
      if (ready) await server.stop();
      expect(ready, 'it started on SQLite without better-sqlite3').toBe(false);
      expect(await server.exited).toBe(1);
      const output = server.output();
      expect(output).toContain('ferry: cannot start: SQLite is configured (DATABASE_URL is unset)');
      expect(output).toContain('better-sqlite3');
      expect(output).toContain(
        'Set DATABASE_URL to a PostgreSQL database, or install it: npm install better-sqlite3@^13',
      );
      // A message, not a module-resolution stack.
      expect(output).not.toMatch(/MODULE_NOT_FOUND|Require stack|\n\s+at /);
    });
  }
});
