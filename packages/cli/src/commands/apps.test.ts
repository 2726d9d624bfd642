import { randomUUID, sign } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APP_HEADER, codeSigningProofBody, type Platform } from '@ferry/contracts';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateSigningKey } from '../../../server/src/signing/development-signing-key.js';
import { CapturedOutput } from '../../test/support/recording-fetch.js';
import { asset, bundle, type SyntheticExport, writeSyntheticExport } from '../../test/support/synthetic-export.js';
import type { AppCodeSigning } from '../code-signing/app-code-signing.js';
import { readProductionBaseline } from '../gate/baseline-reader.js';
import { main } from '../main.js';
import { doctorCommand } from './doctor.js';
import { publishCommand } from './publish.js';
import { releasesCommand } from './releases.js';
import { rollbackCommand } from './rollback.js';

const BASE = 'https://ferry.example.com';
const KEY = generateSigningKey('app shop');

interface Seen {
  method: string;
  path: string;
  /** The `ferry-app` header; null when the request carried none. */
  app: string | null;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const refusal = (status: number, code: string, message: string, details: Record<string, unknown>) =>
  json(status, { error: { code, message, details } });

/**
 * A Ferry server of many apps, as the contract has it, behind fetch: the release token belongs to
 * app `tokenApp`; a request without the header acts on it; another app is refused with
 * APP_FORBIDDEN, an unknown one with APP_NOT_FOUND. Every request is recorded with its header.
 */
function fakeFerry(tokenApp: string, apps: string[]) {
  const seen: Seen[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? 'GET').toUpperCase();
    const header = new Headers(init?.headers).get(APP_HEADER);
    seen.push({ method, path: url.pathname, app: header });
    // Public: an app's own path, or the default app's from before apps.
    const codeSigning = /^\/api\/(?:apps\/([^/]+)|updates)\/code-signing$/.exec(url.pathname);
    if (codeSigning) {
      const app = codeSigning[1] ?? 'default';
      if (!apps.includes(app)) return refusal(404, 'APP_NOT_FOUND', `There is no app '${app}'.`, { app });
      const body = codeSigningProofBody(url.searchParams.get('nonce') ?? '');
      const sig = sign('sha256', Buffer.from(body), KEY.privateKeyPem).toString('base64');
      return json(200, {
        keyId: 'main',
        alg: 'rsa-v1_5-sha256',
        certificate: KEY.certificatePem,
        proof: { body, signature: `sig="${sig}", keyid="main", alg="rsa-v1_5-sha256"` },
      });
    }
    const app = header ?? tokenApp;
    if (!apps.includes(app)) return refusal(404, 'APP_NOT_FOUND', `There is no app '${app}'.`, { app });
    if (app !== tokenApp) {
      return refusal(
        403,
        'APP_FORBIDDEN',
        `This release token belongs to app '${tokenApp}'; it cannot act on app '${app}'.`,
        { tokenApp, app },
      );
    }
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    if (method === 'GET' && url.pathname === '/api/updates/releases')
      return json(200, { releases: [], nextCursor: null });
    if (method === 'POST' && url.pathname === '/api/updates/assets') {
      return json(200, {
        assets: (body.assets as Array<{ hash: string }>).map(({ hash }) => ({
          hash,
          status: 'present',
          url: `${BASE}/assets/${hash}`,
        })),
      });
    }
    if (method === 'POST' && url.pathname === '/api/updates/release') {
      return json(201, {
        release: {
          id: randomUUID(),
          channel: body.channel,
          platform: body.platform,
          runtimeVersion: body.runtimeVersion,
          createdAt: new Date().toISOString(),
          updatePolicy: null,
          fingerprint: null,
          groupId: body.groupId ?? null,
        },
      });
    }
    if (url.pathname.endsWith('/manifest')) return new Response(null, { status: 204 });
    return refusal(404, 'NOT_FOUND', `No route ${method} ${url.pathname}.`, {});
  };
  return { seen, fetch };
}

describe('ferry and the apps of a server', () => {
  let out: CapturedOutput;
  let stderr: string;
  let server: ReturnType<typeof fakeFerry>;
  let project: string;
  let exported: SyntheticExport;
  const runtimeVersions: Record<Platform, string> = { ios: '1.0.0(1)', android: '1.0.0(1)' };

  beforeAll(() => {
    exported = writeSyntheticExport({
      ios: { bundle: bundle('ios'), assets: [asset('png')] },
      android: { bundle: bundle('android'), assets: [] },
    });
  });
  afterAll(() => exported?.remove());
  beforeEach(() => {
    out = new CapturedOutput();
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    server = fakeFerry('shop', ['default', 'shop', 'games']);
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-apps-'));
    fs.mkdirSync(path.join(project, 'certs'));
    fs.writeFileSync(path.join(project, 'certs/certificate.pem'), KEY.certificatePem);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    fs.rmSync(project, { recursive: true, force: true });
  });

  const env = (extra: Record<string, string> = {}) => ({
    CI: 'true',
    APP_ENV: 'production',
    OTA_SERVER_URL: BASE,
    OTA_RELEASE_TOKEN: 'ferry_rt_secret',
    ...extra,
  });
  const run = (register: (program: Command) => void, args: string[]) => {
    const program = new Command('ferry').exitOverride();
    register(program);
    return main(['node', 'ferry', ...args], program);
  };
  const releases = (args: string[], extra: Record<string, string> = {}) =>
    run(
      releasesCommand(() => ({ env: env(extra), out, fetch: server.fetch })),
      ['releases', ...args],
    );
  const codeSigning = (): AppCodeSigning => ({
    certificate: './certs/certificate.pem',
    certificateFile: path.join(project, 'certs/certificate.pem'),
    certificatePath: 'certs/certificate.pem',
    keyId: 'main',
    alg: 'rsa-v1_5-sha256',
  });
  const appConfig = (updatesUrl?: string) => ({
    name: 'Shop',
    slug: 'shop',
    ios: { runtimeVersion: runtimeVersions.ios, bundleIdentifier: 'com.example.shop' },
    android: { runtimeVersion: runtimeVersions.android, package: 'com.example.shop' },
    updates: {
      enabled: true,
      ...(updatesUrl === undefined ? {} : { url: updatesUrl }),
      requestHeaders: { 'expo-channel-name': 'production' },
    },
  });
  const publish = (updatesUrl: string | undefined, args: string[] = [], extra: Record<string, string> = {}) =>
    run(
      publishCommand(() => ({
        env: env(extra),
        out,
        exporter: async () => {
          throw new Error('--dist is given');
        },
        evaluateAppConfig: async () => appConfig(updatesUrl),
        codeSigning: async () => codeSigning(),
        fingerprint: async () => ({ hash: 'fp-1' }),
        git: { commit: async () => 'c0ffee', branch: async () => 'main', subject: async () => 'A change' },
        fetch: server.fetch,
        retry: { attempts: 1, baseDelayMs: 1, sleep: async () => {} },
      })),
      ['publish', '--channel', 'production', '--dist', exported.dir, ...args],
    );
  const apps = () => [...new Set(server.seen.map((request) => request.app))];

  describe('the ferry-app header', () => {
    it('--app names the app on every request', async () => {
      expect(await releases(['--app', 'shop'])).toBe(0);
      expect(server.seen).toEqual([{ method: 'GET', path: '/api/updates/releases', app: 'shop' }]);
    });

    it('OTA_APP names it when --app does not, and --app wins over it', async () => {
      expect(await releases([], { OTA_APP: 'shop' })).toBe(0);
      expect(await releases(['--app', 'shop'], { OTA_APP: 'games' })).toBe(0);
      expect(apps()).toEqual(['shop']);
    });

    it('without --app, OTA_APP or an app config, no header: the server acts on the token’s own app', async () => {
      expect(await releases([])).toBe(0);
      expect(server.seen).toEqual([{ method: 'GET', path: '/api/updates/releases', app: null }]);
    });

    it('a value that is not an app slug is refused before any request', async () => {
      expect(await releases(['--app', 'Shop!'])).toBe(1);
      expect(await releases([], { OTA_APP: 'my--shop' })).toBe(1);
      expect(stderr).toMatch(/OTA_APP="my--shop" is not an app slug/);
      expect(server.seen).toEqual([]);
    });

    it("ferry publish takes the app from the app config's updates.url: every request, and the app's code-signing endpoint", async () => {
      expect(await publish(`${BASE}/api/apps/shop/manifest`)).toBe(0);
      expect(apps()).toEqual(['shop']);
      expect(server.seen.map((request) => `${request.method} ${request.path}`)).toEqual([
        'GET /api/apps/shop/code-signing',
        'POST /api/updates/assets',
        'POST /api/updates/release',
        'POST /api/updates/assets',
        'POST /api/updates/release',
      ]);
      expect(stderr).toContain("code signing: certs/certificate.pem verifies the server's signatures");
    });

    it('the legacy updates URL is the default app’s: its code-signing path stays the one from before apps', async () => {
      server = fakeFerry('default', ['default']);
      expect(await publish(`${BASE}/api/updates/manifest`)).toBe(0);
      expect(server.seen[0]).toEqual({ method: 'GET', path: '/api/updates/code-signing', app: 'default' });
      expect(apps()).toEqual(['default']);
    });
  });

  describe('--app against the app config', () => {
    it('ferry publish --app of another app than updates.url names is refused before any request, naming both', async () => {
      expect(await publish(`${BASE}/api/apps/shop/manifest`, ['--app', 'games'])).toBe(1);
      expect(stderr).toContain(
        `ferry: --app games names app 'games', but the app config's updates.url (${BASE}/api/apps/shop/manifest) is app 'shop'`,
      );
      expect(stderr).toContain("(updatesConfig(appEnv, { app: 'games', … }) of @ferry/expo/config)");
      expect(server.seen).toEqual([]);
    });

    it('OTA_APP against the legacy updates URL (the default app) is refused the same way', async () => {
      expect(await publish(`${BASE}/api/updates/manifest`, [], { OTA_APP: 'shop' })).toBe(1);
      expect(stderr).toMatch(/OTA_APP=shop names app 'shop', but .* is app 'default'/);
      expect(stderr).toContain('Drop OTA_APP');
      expect(server.seen).toEqual([]);
    });

    it('an --app that agrees with updates.url is simply that app', async () => {
      expect(await publish(`${BASE}/api/apps/shop/manifest`, ['--app', 'shop'])).toBe(0);
      expect(apps()).toEqual(['shop']);
    });

    it('ferry doctor --app of another app is refused before any request', async () => {
      const doctor = (args: string[]) =>
        run(
          doctorCommand(() => ({
            env: { APP_ENV: 'production', OTA_RELEASE_TOKEN: 'ferry_rt_secret' },
            out,
            evaluateAppConfig: async () => appConfig(`${BASE}/api/apps/shop/manifest`),
            codeSigning: async () => codeSigning(),
            resolveFingerprintTool: () => {
              throw new Error('not installed in this test');
            },
            loadFingerprintConfig: () => undefined,
            gitIgnores: () => false,
            fetch: server.fetch,
            retry: { attempts: 1, baseDelayMs: 1, sleep: async () => {} },
          })),
          ['doctor', '--project', project, ...args],
        );
      expect(await doctor(['--app', 'games'])).toBe(1);
      expect(stderr).toMatch(/--app games names app 'games', but the app config's updates.url .* is app 'shop'/);
      expect(server.seen).toEqual([]);

      // Without --app: the server under the app's updates URL, the app's code-signing endpoint and
      // manifest, and the token checked for that app.
      expect(await doctor([])).toBe(1); // expo-updates is missing in this test
      expect(out.text).toContain(`       server: ${BASE}, app shop\n`);
      expect(server.seen).toEqual([
        { method: 'GET', path: '/api/apps/shop/code-signing', app: 'shop' },
        { method: 'GET', path: '/api/apps/shop/manifest', app: null },
        { method: 'GET', path: '/api/apps/shop/manifest', app: null },
        { method: 'GET', path: '/api/updates/releases', app: 'shop' },
      ]);
      expect(out.text).toMatch(/\[ok {2}\] the certificate matches the server's signature/);
      expect(out.text).toMatch(/\[ok {2}\] the token works/);
    });
  });

  describe("the server's refusals of an app", () => {
    it('APP_FORBIDDEN: the server’s message and the fix, exit 1', async () => {
      expect(await releases(['--app', 'games'])).toBe(1);
      expect(stderr).toBe(
        "ferry: This release token belongs to app 'shop'; it cannot act on app 'games'. Fix: use the release " +
          "token of app 'games' as OTA_RELEASE_TOKEN (an admin makes one with `ferry-server apps token games " +
          "--name ci`), or --app shop to act on the token's own app.\n",
      );
    });

    it('APP_FORBIDDEN of a command that changes something is sent once, and says the same', async () => {
      const code = await run(
        rollbackCommand(() => ({ env: env({ OTA_APP: 'games' }), out, fetch: server.fetch })),
        ['rollback', '--channel', 'production', '--platform', 'ios', '--runtime-version', '1.0.0(1)'],
      );
      expect(code).toBe(1);
      expect(stderr).toContain('`ferry-server apps token games --name ci`), or --app shop');
      expect(server.seen.length).toBeGreaterThan(0);
      expect(server.seen.every((request) => request.app === 'games')).toBe(true);
    });

    it('APP_NOT_FOUND: the fix names where the slug came from and how apps are listed', async () => {
      expect(await releases(['--app', 'nope'])).toBe(1);
      expect(stderr).toContain("ferry: There is no app 'nope'. Fix: check the slug of app 'nope' (--app, OTA_APP");
      expect(stderr).toContain('`ferry-server apps list`');
    });

    it("APP_NOT_FOUND of the app's code-signing endpoint is not taken for a server older than the CLI", async () => {
      expect(await publish(`${BASE}/api/apps/nope/manifest`)).toBe(1);
      expect(stderr).toContain("Refusing to publish updates the app's builds would reject.");
      expect(stderr).toContain("There is no app 'nope'. Fix:");
      expect(stderr).not.toContain('older than this CLI');
      expect(server.seen).toEqual([{ method: 'GET', path: '/api/apps/nope/code-signing', app: 'nope' }]);
    });
  });

  it("the gate's baseline read names the app; without one it names none", async () => {
    const asked: Array<string | null> = [];
    const fetch: typeof globalThis.fetch = async (_input, init) => {
      asked.push(new Headers(init?.headers).get(APP_HEADER));
      return refusal(404, 'NO_RELEASE', 'No release.', { runtimeVersion: '1.0.0(1)' });
    };
    expect(await readProductionBaseline({ serverUrl: BASE, app: 'shop', fetch }, 'ios', '1.0.0(1)')).toEqual({
      kind: 'no-release',
    });
    await readProductionBaseline({ serverUrl: BASE, fetch }, 'ios', '1.0.0(1)');
    expect(asked).toEqual(['shop', null]);
  });
});
