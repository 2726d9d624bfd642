import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { EmbeddedBundleResponse, type Platform } from '@ferry/contracts';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileOf, publishRelease } from '../../../server/test/support/publisher.js';
import { startTestServer } from '../../../server/test/support/test-server.js';
import {
  androidFiles,
  appManifest,
  iosAppFiles,
  launchBundle,
  under,
  writeZip,
} from '../../test/support/build-products.js';
import { CapturedOutput } from '../../test/support/recording-fetch.js';
import { main } from '../main.js';
import { formatBytes } from '../publish/format.js';
import { embeddedCommand } from './embedded.js';

/** One request as the server received it. */
interface Received {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A stand-in for the Ferry server's PUT /api/updates/embedded, over real HTTP: it records each
 * request and answers as the contract says (201 the first time an update id comes, 200 after), or
 * with `refuse` when a test sets it.
 */
const received: Received[] = [];
const registered = new Map<string, string>();
let refuse: { status: number; body: unknown } | undefined;
let patchesQueued = 2;
const server = http.createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const body = await buffer(request);
  const query = Object.fromEntries(url.searchParams);
  received.push({ method: request.method ?? '', path: url.pathname, query, headers: request.headers, body });
  const answer = (status: number, json: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(json));
  };
  if (refuse) return answer(refuse.status, refuse.body);
  const hash = createHash('sha256').update(body).digest('base64url');
  const known = registered.has(query.updateId!);
  registered.set(query.updateId!, hash);
  const bundle = {
    platform: query.platform as Platform,
    runtimeVersion: query.runtimeVersion!,
    updateId: query.updateId!,
    hash,
    bytes: body.length,
    registeredAt: '2026-11-27T10:00:00.000Z',
    patchesQueued: known ? 0 : patchesQueued,
  };
  answer(known ? 200 : 201, EmbeddedBundleResponse.parse(bundle));
});

let serverUrl: string;
let dir: string;
let out: CapturedOutput;
let stderr: string;
let configEvaluations: string[];
const TOKEN = 'release-token-for-the-test';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-embedded-cmd-'));
  received.length = 0;
  refuse = undefined;
  patchesQueued = 2;
  out = new CapturedOutput();
  stderr = '';
  configEvaluations = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ferry = (args: string[], env: Record<string, string | undefined> = {}) => {
  const program = new Command('ferry').exitOverride();
  embeddedCommand(() => ({
    env: { OTA_SERVER_URL: serverUrl, OTA_RELEASE_TOKEN: TOKEN, ...env },
    out,
    // The app config as the publisher reads it: a runtimeVersion per platform.
    evaluateAppConfig: async (projectRoot) => {
      configEvaluations.push(projectRoot);
      return { ios: { runtimeVersion: '1.4.0(17)' }, android: { runtimeVersion: '1.4.0(41)' } };
    },
  }))(program);
  return main(['node', 'ferry', 'embedded', 'upload', ...args], program);
};

const ipa = async (id: string, bundle: Buffer) =>
  writeZip(path.join(dir, 'Shop.ipa'), under('Payload/Shop.app/', iosAppFiles(appManifest(id), bundle)));
const aab = async (id: string, bundle: Buffer) =>
  writeZip(path.join(dir, 'app-release.aab'), under('base/', androidFiles(appManifest(id), bundle)));

describe('ferry embedded upload over HTTP', () => {
  it('an .ipa: PUT with the platform, the app config’s runtimeVersion, the manifest’s id, the token and the bundle’s bytes', async () => {
    const id = randomUUID();
    const bundle = launchBundle(300_000);
    const file = await ipa(id, bundle);
    expect(await ferry([file, '--project', dir])).toBe(0);

    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request!.method).toBe('PUT');
    expect(request!.path).toBe('/api/updates/embedded');
    expect(request!.query).toEqual({ platform: 'ios', runtimeVersion: '1.4.0(17)', updateId: id });
    expect(request!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request!.headers['content-type']).toBe('application/octet-stream');
    expect(request!.body.equals(bundle)).toBe(true);
    expect(configEvaluations).toEqual([dir]);

    const hash = createHash('sha256').update(bundle).digest('base64url');
    expect(out.text).toBe(
      [
        'Registered the embedded update of ios 1.4.0(17)',
        `  runtimeVersion  1.4.0(17) (from the app config of ${dir})`,
        `  update id       ${id} (from Payload/Shop.app/EXUpdates.bundle/app.manifest in ${file})`,
        `  bundle          ${formatBytes(bundle.length)}, sha256 ${hash} (from Payload/Shop.app/main.jsbundle in ${file})`,
        '  patches         2 queued, from this bundle to the releases now served on ios 1.4.0(17)',
        '',
      ].join('\n'),
    );
    expect(stderr).toBe('');
  });

  it('an .aab with --runtime-version: the app config is not read; the second upload changes nothing', async () => {
    const id = randomUUID();
    const bundle = launchBundle(5000);
    const file = await aab(id, bundle);
    expect(await ferry([file, '--runtime-version', '2.0.0(50)'])).toBe(0);
    expect(received[0]!.query).toEqual({ platform: 'android', runtimeVersion: '2.0.0(50)', updateId: id });
    expect(received[0]!.body.equals(bundle)).toBe(true);
    expect(configEvaluations).toEqual([]);
    expect(out.text).toMatch(/^Registered the embedded update of android 2\.0\.0\(50\)\n/);
    expect(out.text).toContain('  runtimeVersion  2.0.0(50) (from --runtime-version)\n');

    out = new CapturedOutput();
    expect(await ferry([file, '--runtime-version', '2.0.0(50)'])).toBe(0);
    expect(received).toHaveLength(2);
    expect(out.text).toMatch(/^Already registered, nothing changed: the embedded update of android 2\.0\.0\(50\)\n/);
    expect(out.text).toContain('  patches         none queued now: this update was registered before');
  });

  it('with no release on the runtimeVersion yet, says that later releases get a patch', async () => {
    patchesQueued = 0;
    expect(await ferry([await aab(randomUUID(), launchBundle(10))])).toBe(0);
    expect(out.text).toContain(
      'patches         none queued: no release served on android 1.4.0(41) needs one (none yet, or it ships these very bytes); each one published there gets a patch from this bundle',
    );
  });

  it('--json prints the server’s answer with created', async () => {
    const id = randomUUID();
    const bundle = launchBundle(1234);
    expect(await ferry([await aab(id, bundle), '--json'])).toBe(0);
    const printed = JSON.parse(out.text) as Record<string, unknown>;
    expect(printed).toEqual({
      created: true,
      platform: 'android',
      runtimeVersion: '1.4.0(41)',
      updateId: id,
      hash: createHash('sha256').update(bundle).digest('base64url'),
      bytes: 1234,
      registeredAt: '2026-11-27T10:00:00.000Z',
      patchesQueued: 2,
    });
  });

  it('--manifest and --bundle with --platform; a runtimeVersion the manifest carries wins, and must agree with --runtime-version', async () => {
    const id = randomUUID();
    const bundle = launchBundle(777);
    const manifest = path.join(dir, 'app.manifest');
    fs.writeFileSync(manifest, appManifest(id, { runtimeVersion: '3.1.0(9)' }));
    const bundleFile = path.join(dir, 'index.android.bundle');
    fs.writeFileSync(bundleFile, bundle);

    expect(await ferry(['--manifest', manifest, '--bundle', bundleFile, '--platform', 'android'])).toBe(0);
    expect(received[0]!.query).toEqual({ platform: 'android', runtimeVersion: '3.1.0(9)', updateId: id });
    expect(received[0]!.body.equals(bundle)).toBe(true);
    expect(configEvaluations).toEqual([]);

    received.length = 0;
    const args = ['--manifest', manifest, '--bundle', bundleFile, '--platform', 'android'];
    expect(await ferry([...args, '--runtime-version', '3.1.0(8)'])).toBe(1);
    expect(stderr).toBe(`ferry: ${manifest} says runtimeVersion 3.1.0(9), but --runtime-version says 3.1.0(8).\n`);
    expect(received).toEqual([]);
  });

  it('an app config that cannot give the runtimeVersion: its reason, and the way around it', async () => {
    const program = new Command('ferry').exitOverride();
    embeddedCommand(() => ({
      env: { OTA_SERVER_URL: serverUrl, OTA_RELEASE_TOKEN: TOKEN },
      out,
      evaluateAppConfig: async () => ({}),
    }))(program);
    const file = await aab(randomUUID(), launchBundle(10));
    expect(await main(['node', 'ferry', 'embedded', 'upload', file], program)).toBe(1);
    expect(stderr).toMatch(/^ferry: The app config gives android no runtimeVersion\. /);
    expect(stderr).toMatch(
      /\n {2}The build's app\.manifest names no runtimeVersion, so it comes from the app config \(--project\); or name it with --runtime-version\.\n$/,
    );
    expect(received).toEqual([]);
  });

  it('--update-id and --bundle', async () => {
    const id = randomUUID();
    const bundleFile = path.join(dir, 'main.jsbundle');
    fs.writeFileSync(bundleFile, launchBundle(99));
    expect(await ferry(['--update-id', id, '--bundle', bundleFile, '--platform', 'ios'])).toBe(0);
    expect(received[0]!.query).toEqual({ platform: 'ios', runtimeVersion: '1.4.0(17)', updateId: id });
    expect(out.text).toContain(`  update id       ${id} (from --update-id)`);
  });

  it('a server refusal is printed as the server words it, exit 1', async () => {
    const id = randomUUID();
    refuse = {
      status: 409,
      body: {
        error: {
          code: 'EMBEDDED_BUNDLE_CONFLICT',
          message: `The embedded update ${id} is already registered with another bundle; an update id names one bundle.`,
          details: { updateId: id },
        },
      },
    };
    expect(await ferry([await aab(id, launchBundle(10))])).toBe(1);
    expect(stderr).toBe(
      `ferry: The embedded update ${id} is already registered with another bundle; an update id names one bundle.\n`,
    );
    expect(out.text).toBe('');
    // A refusal is final: not sent again.
    expect(received).toHaveLength(1);
  });

  it('a wrong token is the server’s 401', async () => {
    refuse = {
      status: 401,
      body: { error: { code: 'UNAUTHORIZED', message: 'A valid release token is required.', details: {} } },
    };
    expect(await ferry([await aab(randomUUID(), launchBundle(10))], { OTA_RELEASE_TOKEN: 'wrong' })).toBe(1);
    expect(received[0]!.headers.authorization).toBe('Bearer wrong');
    expect(stderr).toBe('ferry: A valid release token is required.\n');
  });

  it.each([
    ['no release token', [], { OTA_RELEASE_TOKEN: undefined }, /^ferry: OTA_RELEASE_TOKEN is not set/],
    ['no server', [], { OTA_SERVER_URL: undefined }, /^ferry: No server: pass --server <url> or set OTA_SERVER_URL\./],
    ['nothing to upload', [], {}, /^ferry: Name a build product .* or pass --bundle with --manifest or --update-id\./],
    [
      '--bundle without --platform',
      ['--update-id', 'x', '--bundle', 'b'],
      {},
      /^ferry: --platform <ios\|android> is required with --bundle/,
    ],
    [
      '--manifest without --bundle',
      ['--manifest', 'm'],
      {},
      /^ferry: --bundle <file> is required with --manifest or --update-id/,
    ],
    [
      'a build product and explicit files',
      ['Shop.ipa', '--bundle', 'b'],
      {},
      /^ferry: Give either a build product or --bundle/,
    ],
    [
      'a runtimeVersion the server would refuse',
      ['x.apk', '--runtime-version', ' 1.0'],
      {},
      /runtimeVersion must be printable ASCII/,
    ],
    ['an unknown platform', ['x.apk', '--platform', 'web'], {}, /Allowed choices are ios, android/],
  ])('%s: refused before any request', async (_name, args, env, reason) => {
    expect(await ferry(args, env)).toBe(1);
    expect(stderr).toMatch(reason);
    expect(received).toEqual([]);
  });

  it('a build product of the other platform than --platform, and an unreadable archive: refused before any request', async () => {
    const file = await ipa(randomUUID(), launchBundle(10));
    expect(await ferry([file, '--platform', 'android'])).toBe(1);
    expect(stderr).toBe(`ferry: ${file} is an ios build, but --platform says android.\n`);

    stderr = '';
    const broken = path.join(dir, 'broken.apk');
    fs.writeFileSync(broken, 'not a zip');
    expect(await ferry([broken])).toBe(1);
    expect(stderr).toMatch(
      new RegExp(`^ferry: ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be read as a zip archive`),
    );
    expect(received).toEqual([]);
  });
});

describe('ferry embedded upload against the real server', () => {
  it('registers the bundle, queues a patch to the release served on its runtimeVersion, and is listed', async () => {
    const ferryServer = await startTestServer('sqlite');
    try {
      const track = { channel: 'production' as const, platform: 'android' as const, runtimeVersion: '7.0.0(70)' };
      const release = launchBundle(20_000);
      await publishRelease(ferryServer, { ...track, launch: fileOf(release, 'application/javascript', '.bundle') });
      const id = randomUUID();
      // The build embeds a bundle close to the release's, as a store build and its next OTA are.
      const embedded = Buffer.concat([release.subarray(0, 19_000), Buffer.from('embedded')]);
      const file = await aab(id, embedded);
      const upload = (...args: string[]) => {
        const program = new Command('ferry').exitOverride();
        embeddedCommand(() => ({
          env: { OTA_SERVER_URL: ferryServer.url, OTA_RELEASE_TOKEN: ferryServer.token },
          out,
          evaluateAppConfig: async () => ({ android: { runtimeVersion: track.runtimeVersion } }),
        }))(program);
        return main(['node', 'ferry', 'embedded', 'upload', file, ...args], program);
      };

      expect(await upload('--json')).toBe(0);
      expect(JSON.parse(out.text)).toMatchObject({
        created: true,
        platform: 'android',
        runtimeVersion: track.runtimeVersion,
        updateId: id,
        bytes: embedded.length,
        patchesQueued: 1,
      });
      out = new CapturedOutput();
      expect(await upload()).toBe(0);
      expect(out.text).toMatch(/^Already registered, nothing changed/);

      const listed = await ferryServer.authed(
        `/api/updates/embedded?platform=android&runtimeVersion=${encodeURIComponent(track.runtimeVersion)}`,
      );
      expect(
        ((await listed.json()) as { embedded: Array<{ updateId: string }> }).embedded.map((e) => e.updateId),
      ).toEqual([id]);
      expect(stderr).toBe('');
    } finally {
      await ferryServer.close();
    }
  });
});
