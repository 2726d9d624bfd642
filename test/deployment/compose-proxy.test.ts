/**
 * Issue 35, item 6: the compose stack is the real topology, two instances behind one public URL.
 * No container runtime here, so the parts run as the stack runs them: Caddy (Debian's, the binary
 * the stack's caddy:2 image holds) with deploy/compose/Caddyfile as it is, only its upstreams and
 * port set through the variables the file reads; two Ferry instances on one PostgreSQL database,
 * one object store and one Redis, with the compose file's TRUST_PROXY and one PUBLIC_URL, the
 * proxy's. Through that one URL: both instances serve; an update published there is completed by a
 * device after the instance that took the publish stopped; per-address limits count the client
 * the proxy saw, not an address the client wrote.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTestDatabase, type TestDatabase } from '../../packages/server/test/support/engines.js';
import { downloadAndVerify, fetchManifestLikeExpo } from '../../packages/server/test/support/expo-client.js';
import { fileOf, publishRelease } from '../../packages/server/test/support/publisher.js';
import { sharedRateLimits, uniqueKeyPrefix } from '../../packages/server/test/support/redis.js';
import { startTestServer, TEST_SIGNING, type TestServer } from '../../packages/server/test/support/test-server.js';
import { REPO_ROOT } from '../../scripts/local-registry.js';
import { cleanEnv, freePort, killAll, start, waitUntilReady } from '../e2e/support/sandbox.js';

const CADDYFILE = path.join(REPO_ROOT, 'deploy/compose/Caddyfile');
const caddyProblem = (() => {
  const found = spawnSync('caddy', ['version'], { encoding: 'utf8' });
  return found.status === 0 ? undefined : 'no caddy on PATH (Debian package caddy; .ci/run installs it)';
})();
if (caddyProblem && process.env.CI === 'true') throw new Error(`the compose proxy test needs Caddy: ${caddyProblem}`);
if (caddyProblem) process.stderr.write(`[ferry tests] skipping the compose proxy test: ${caddyProblem}\n`);

interface ComposeService {
  image?: string;
  ports?: string[];
  volumes?: string[];
  environment?: Record<string, string>;
}
const compose = parse(fs.readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const instances = ['ferry-1', 'ferry-2'].map((name) => compose.services[name]!);
const proxy = compose.services.proxy!;

describe('docker-compose.yml: one public URL', () => {
  it('publishes the proxy alone, and gives both instances its URL and one trusted hop', () => {
    expect(proxy.image).toMatch(/^caddy:2/);
    expect(proxy.volumes).toEqual(['./deploy/compose/Caddyfile:/etc/caddy/Caddyfile:ro']);
    expect(proxy.ports).toEqual(['3000:80']);
    for (const instance of instances) {
      expect(instance.ports).toBeUndefined();
      expect(instance.environment).toMatchObject({ PUBLIC_URL: 'http://localhost:3000', TRUST_PROXY: '1' });
    }
    // The Caddyfile's defaults are the compose services and the port the compose file maps.
    const caddyfile = fs.readFileSync(CADDYFILE, 'utf8');
    expect(caddyfile).toContain('{$FERRY_UPSTREAMS:ferry-1:3000 ferry-2:3000}');
    expect(caddyfile).toContain(':{$PROXY_PORT:80}');
  });
});

const LIMIT = 4;
const track = { channel: 'production', platform: 'android', runtimeVersion: '35.6.2' } as const;

/** A GET through the proxy from a client address of its own (any 127.x is this machine). */
function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { localAddress, headers, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

describe.skipIf(caddyProblem !== undefined)('the compose topology: Caddy in front of two instances', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-compose-proxy-'));
  let database: TestDatabase;
  const servers: TestServer[] = [];
  let proxyUrl: string;
  const served = [0, 0];
  const published = [0, 0];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const port = await freePort();
    proxyUrl = `http://127.0.0.1:${port}`;
    const keyPrefix = uniqueKeyPrefix();
    const environment = instances[0]!.environment!;
    for (const index of [0, 1]) {
      const server = await startTestServer('postgres', {
        database,
        configure: sharedRateLimits(keyPrefix),
        env: {
          // The compose file's, with the URL the proxy has here.
          TRUST_PROXY: environment.TRUST_PROXY!,
          PUBLIC_URL: proxyUrl,
          // One object store for both (MinIO in the stack).
          DATA_DIR: path.join(work, 'data'),
          OBJECT_URL_SIGNING_SECRET: 'compose-proxy-test-object-url-secret',
          BASELINE_RATE_LIMIT_PER_MINUTE: String(LIMIT),
          MANIFEST_WARM_UP_REQUESTS: '0',
        },
      });
      server.app.server.on('request', (request: http.IncomingMessage) => {
        if (request.url === '/healthz') served[index]!++;
        if (request.url === '/api/updates/release') published[index]!++;
      });
      servers.push(server);
    }
    const caddy = start('caddy', ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'], {
      cwd: work,
      env: cleanEnv({
        HOME: work,
        XDG_DATA_HOME: path.join(work, 'xdg-data'),
        XDG_CONFIG_HOME: path.join(work, 'xdg-config'),
        PROXY_PORT: String(port),
        PROXY_BIND: '127.0.0.1',
        FERRY_UPSTREAMS: servers.map((server) => server.url.replace('http://', '')).join(' '),
      }),
    });
    await waitUntilReady(`${proxyUrl}/readyz`, caddy.exited, caddy.output);
  });

  afterAll(async () => {
    killAll();
    for (const server of servers) await server.close().catch(() => {});
    await database?.drop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('both instances answer through the one URL', async () => {
    for (let i = 0; i < 20; i++) expect((await fetch(`${proxyUrl}/healthz`)).status).toBe(200);
    expect(served[0]).toBeGreaterThan(0);
    expect(served[1]).toBeGreaterThan(0);
  });

  it('per-address limits count the client the proxy saw: forged X-Forwarded-For changes nothing, another client counts apart', async () => {
    const baseline = `${proxyUrl}/api/updates/baseline-fingerprint?platform=ios&runtimeVersion=1.0.0(1)`;
    const forged = () => ({ 'x-forwarded-for': `10.${[...randomBytes(3)].join('.')}` });
    let admitted = 0;
    for (; admitted < LIMIT * 3; admitted++) {
      const status = await getFrom('127.0.0.2', baseline, forged());
      if (status === 429) break;
      expect(status).toBe(404);
    }
    // One budget across both instances (Redis), for the client's own address whatever it forged.
    expect(admitted).toBe(LIMIT);
    // A second client behind the same proxy is not the proxy: it has a budget of its own.
    expect(await getFrom('127.0.0.3', baseline)).toBe(404);
  });

  it('an update published through the URL is completed by a device after the instance that took it stopped', async () => {
    const authed = (route: string, init: RequestInit = {}) =>
      fetch(proxyUrl + route, {
        ...init,
        headers: { authorization: `Bearer ${servers[0]!.token}`, 'content-type': 'application/json', ...init.headers },
      });
    const launch = fileOf(
      `console.log(${JSON.stringify(randomBytes(8).toString('hex'))});`,
      'application/javascript',
      '.bundle',
    );
    const asset = fileOf(randomBytes(512), 'image/png', '.png');
    const { id } = await publishRelease({ url: proxyUrl, authed } as unknown as TestServer, {
      ...track,
      launch,
      assets: [asset],
    });

    // The instance that took the publish stops; every device check through the URL completes on the other.
    const publisher = published.findIndex((count) => count > 0);
    expect(published.filter((count) => count > 0)).toHaveLength(1);
    await servers[publisher]!.close();
    for (let device = 0; device < 6; device++) {
      const result = await fetchManifestLikeExpo(proxyUrl, 'expo', track, {
        certificatePem: TEST_SIGNING.certificatePem,
        keyId: 'main',
      });
      if (result.kind !== 'update') throw new Error(`device ${device} got ${result.kind}`);
      expect(result.manifest.id).toBe(id);
      for (const each of [result.manifest.launchAsset, ...result.manifest.assets]) {
        expect(each.url.startsWith(`${proxyUrl}/objects/`)).toBe(true);
        await downloadAndVerify(each);
      }
    }
  });
});
