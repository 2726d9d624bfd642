import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inFlightRequest } from './support/in-flight-request.js';
import { releasePayload, servedAt, storeAssets } from './support/releases.js';
import { type SpawnedServer, spawnServer as spawn } from './support/spawn-server.js';
import type { TestServer } from './support/test-server.js';

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-start-'));
  tempDirs.push(dir);
  return path.join(dir, 'data');
};
// Every server a test starts is stopped afterwards, also when the test failed half-way.
const servers: SpawnedServer[] = [];
const spawnServer = (env: Record<string, string>) => {
  const server = spawn(env);
  servers.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm start (the real entry point)', () => {
  it('runs with zero configuration: creates DATA_DIR, prints a release token once, warns about development mode', async () => {
    const dataDir = tempDir();
    const first = spawnServer({ DATA_DIR: dataDir });
    const url = await first.ready();
    const token = fs.readFileSync(path.join(dataDir, 'dev/release-token'), 'utf8').trim();
    expect(first.output()).toContain(token);
    expect(first.output()).toMatch(/DEVELOPMENT mode/);
    expect(first.output()).toMatch(/"level":40.*development mode/);
    expect(fs.existsSync(path.join(dataDir, 'ferry.sqlite'))).toBe(true);

    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    const unauthorized = await fetch(`${url}/api/updates/release`, { method: 'POST' });
    expect(unauthorized.status).toBe(401);
    // The other parts work on the embedded defaults too: the web funnel (built by `npm ci`'s
    // prepare step) and the manifest endpoint, whose development signing key was just generated.
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const manifest = await fetch(`${url}/api/updates/manifest`, {
      headers: {
        'expo-platform': 'ios',
        'expo-runtime-version': '1.0.0(1)',
        'expo-channel-name': 'production',
        'expo-protocol-version': '1',
      },
    });
    expect(manifest.status).toBe(204);
    expect(await first.stop()).toBe(0);

    // The second start reuses the token and does not print it again.
    const second = spawnServer({ DATA_DIR: dataDir });
    await second.listening;
    expect(second.output()).not.toContain(token);
    expect(second.output()).toContain('release-token');
    expect(await second.stop()).toBe(0);
  });

  it('shuts down gracefully on SIGTERM, finishing in-flight requests', async () => {
    const dataDir = tempDir();
    const server = spawnServer({ DATA_DIR: dataDir });
    const url = new URL(await server.listening);
    const token = fs.readFileSync(path.join(dataDir, 'dev/release-token'), 'utf8').trim();
    // The release endpoint refuses assets that are not stored: upload them first, as `ferry publish` does.
    // Sent raw below, so listing the assets at the URLs this server serves them at (servedAt).
    const payload = JSON.parse(servedAt(JSON.stringify(releasePayload()), `${url.origin}/objects`));
    const authed: TestServer['authed'] = (route, init = {}) =>
      fetch(new URL(route, url), {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
      });
    await storeAssets({ authed } as TestServer, payload);
    // A request whose body is still arriving when the signal comes: it must complete, not be cut.
    const release = inFlightRequest(
      {
        host: url.hostname,
        port: url.port,
        path: '/api/updates/release',
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      Buffer.from(JSON.stringify(payload)),
      10,
      { announce: true },
    );
    // The server has read the request head (it answered 100 Continue): the request is in flight.
    await release.received;
    server.child.kill('SIGTERM');
    await server.waitForOutput(/shutting down/);
    release.finish();
    expect(await release.status).toBe(201);
    expect(await server.exited).toBe(0);
  });

  it.each([
    ['NODE_ENV=production without OTA_RELEASE_TOKEN', { NODE_ENV: 'production' }, /OTA_RELEASE_TOKEN/],
    ['a malformed PORT', { PORT: 'eighty' }, /PORT/],
    ['a DATABASE_URL that is not postgres', { DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    ['a release token that is too short', { NODE_ENV: 'production', OTA_RELEASE_TOKEN: 'short' }, /OTA_RELEASE_TOKEN/],
  ])('%s stops start-up with a message naming the variable', async (_name, env, message) => {
    const server = spawnServer({ DATA_DIR: tempDir(), ...env });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(message);
    expect(server.output()).not.toMatch(/Server listening/);
  });
});
