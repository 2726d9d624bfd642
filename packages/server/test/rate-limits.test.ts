import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newUser, startCertificateServer } from './support/certificates.js';
import { describeEachEngine, type EngineName } from './support/engines.js';
import {
  deleteKeysUnder,
  describeWithRedis,
  keysUnder,
  REDIS_TEST_URL,
  sharedRateLimits,
  uniqueKeyPrefix,
} from './support/redis.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const LIMIT = 4;
// A release-token endpoint that changes nothing: its budget is RELEASE_RATE_LIMIT_PER_MINUTE per token.
const RELEASES = '/api/updates/releases?channel=production&platform=ios&runtimeVersion=1.0.0(1)';
const env = { RELEASE_RATE_LIMIT_PER_MINUTE: String(LIMIT) };

async function expectRateLimited(response: Response): Promise<void> {
  expect(response.status).toBe(429);
  expect(await response.json()).toEqual({
    error: {
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many requests; retry in \d+ s\.$/),
      details: { limit: LIMIT },
    },
  });
}

describeWithRedis('shared rate limits (REDIS_URL)', () => {
  describeEachEngine('two instances on one Redis', (engine: EngineName) => {
    const prefix = uniqueKeyPrefix();
    let a: TestServer;
    let b: TestServer;
    beforeAll(async () => {
      const options = { env: { ...env, REDIS_URL: REDIS_TEST_URL }, configure: sharedRateLimits(prefix) };
      a = await startTestServer(engine, options);
      b = await startTestServer(engine, { ...options, database: a.database });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
      await deleteKeysUnder(prefix);
    });

    it(`${LIMIT} requests split across the instances use the budget up; the next one is 429 on either`, async () => {
      for (const server of [a, b, a, b]) expect((await server.authed(RELEASES)).status).toBe(200);
      await expectRateLimited(await a.authed(RELEASES));
      await expectRateLimited(await b.authed(RELEASES));
      // The counters live in Redis under the prefix, keyed by route and hashed token (never the token).
      const keys = await keysUnder(prefix);
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(new RegExp(`^${prefix}GET/api/updates/releases-token:[\\w-]+$`));
      expect(keys[0]).not.toContain(a.token);
    });

    it('says at start that limits are shared', () => {
      expect(a.logs.text).toContain('rate limits are shared through Redis (REDIS_URL)');
    });
  });

  describe('the certificate budget', () => {
    const prefix = uniqueKeyPrefix();
    const servers: TestServer[] = [];
    afterAll(async () => {
      for (const server of servers.reverse()) await server.close();
      await deleteKeysUnder(prefix);
    });

    it('is one per user across instances too', async () => {
      const options = {
        env: { CERT_RATE_LIMIT_PER_MINUTE: '2', REDIS_URL: REDIS_TEST_URL },
        configure: sharedRateLimits(prefix),
      };
      const a = await startCertificateServer('sqlite', options);
      servers.push(a);
      const b = await startCertificateServer('sqlite', { ...options, database: a.database });
      servers.push(b);
      const token = await a.tokenFor(newUser());
      // Counted after authentication and before the body is read: an invalid body uses the budget.
      expect((await a.post('resident-certificate', {}, token)).status).toBe(400);
      expect((await b.post('family-relations', {}, token)).status).toBe(400);
      const limited = await a.post('resident-abstract', {}, token);
      expect(limited.status).toBe(429);
      expect((await limited.json()).error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 2 } });
      expect((await b.post('resident-certificate', {}, token)).status).toBe(429);
    });
  });

  describe('a Redis outage', () => {
    const prefix = uniqueKeyPrefix();
    let proxy: TcpProxy;
    let server: TestServer;
    beforeAll(async () => {
      const target = new URL(REDIS_TEST_URL);
      proxy = await tcpProxy(target.hostname, Number(target.port || 6379));
      target.host = `127.0.0.1:${proxy.port}`;
      server = await startTestServer('sqlite', {
        env: { ...env, REDIS_URL: target.toString() },
        configure: sharedRateLimits(prefix, target.toString()),
      });
    });
    afterAll(async () => {
      await server?.close();
      await proxy?.close();
      await deleteKeysUnder(prefix);
    });

    it('lets requests through (fail open) with a warning, and counts again once Redis is back', async () => {
      for (let i = 0; i < LIMIT; i++) expect((await server.authed(RELEASES)).status).toBe(200);
      await expectRateLimited(await server.authed(RELEASES));

      await proxy.interrupt();
      // Redis stays unreachable (the proxy refuses every connection) until resume() below, so these
      // requests pass without waiting for Redis to come back: commands fail at once while disconnected.
      for (let i = 0; i < 3; i++) expect((await server.authed(RELEASES)).status).toBe(200);
      await expect.poll(() => server.logs.text).toMatch(/rate-limit Redis unreachable/);

      await proxy.resume();
      // The counter survived in Redis: once reconnected, the budget is still used up.
      await expect.poll(() => server.logs.text).toContain('rate-limit Redis reachable again');
      await expectRateLimited(await server.authed(RELEASES));
    });
  });
});

describe('rate limits without a reachable Redis', () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0).reverse()) await server.close();
  });

  it('without REDIS_URL are per instance: each instance has the whole budget', async () => {
    const a = await startTestServer('sqlite', { env });
    servers.push(a);
    const b = await startTestServer('sqlite', { env, database: a.database });
    servers.push(b);
    for (let i = 0; i < LIMIT; i++) expect((await a.authed(RELEASES)).status).toBe(200);
    await expectRateLimited(await a.authed(RELEASES));
    for (let i = 0; i < LIMIT; i++) expect((await b.authed(RELEASES)).status).toBe(200);
    await expectRateLimited(await b.authed(RELEASES));
    expect(a.logs.text).not.toContain('Redis');
  });

  it('an unreachable REDIS_URL neither stops start-up nor fails requests: they pass, with a warning', async () => {
    const started = Date.now();
    // Port 1 refuses connections at once.
    const server = await startTestServer('sqlite', { env: { ...env, REDIS_URL: 'redis://127.0.0.1:1' } });
    servers.push(server);
    for (let i = 0; i < LIMIT + 2; i++) expect((await server.authed(RELEASES)).status).toBe(200);
    const warnings = server.logs
      .entries()
      .filter(
        (entry) => entry.msg === 'rate-limit Redis unreachable: requests pass without rate limiting until it is back',
      );
    // Repeated at most once a minute however often ioredis retries (every 200 ms at first): one
    // warning, plus one per whole minute this test has run on a slow machine.
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.length).toBeLessThanOrEqual(1 + Math.floor((Date.now() - started) / 60_000));
    expect(warnings[0]).toMatchObject({ level: 40 });
    expect(server.logs.text).not.toContain('redis://');
  });
});

interface TcpProxy {
  port: number;
  /** Cuts every connection and refuses new ones, like a Redis that went away. */
  interrupt(): Promise<void>;
  /** Accepts connections again on the same port. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP relay in front of Redis that a test can interrupt. */
async function tcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (listenPort: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listenPort, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  await listen(0);
  const address = server.address();
  const proxyPort = typeof address === 'object' && address ? address.port : 0;
  return { port: proxyPort, interrupt: stop, resume: () => listen(proxyPort), close: stop };
}
