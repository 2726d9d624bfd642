import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANG_GUARD_MS } from '../../../../test/support/hang-guard.cjs';
import { clientHeaders } from '../support/expo-client.js';
import { sampleSum, scrape } from '../support/prometheus.js';
import { releasePayload, storeAssets } from '../support/releases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
  throwawayPostgresProblem,
} from '../support/throwaway-postgres.js';
import { takeDatabaseAway } from '../support/unreachable-database.js';

/**
 * Issue 34, item 3: during a database outage a warm track keeps answering with its last signed
 * manifest past its TTL (stale-if-error), up to MANIFEST_STALE_IF_ERROR_SECONDS counted from its
 * last successful load; a cold track answers 503 at once, and so does the warm one after the limit.
 */
const TTL_MS = 1_000;
const STALE_MS = 6_000;
const METRICS_TOKEN = 'stale-metrics-token-0123456789abcdef';
const STALE_WARNING = 'could not reload a cached manifest';
const LIMIT_WARNING = 'reached MANIFEST_STALE_IF_ERROR_SECONDS';

const postgresProblem = throwawayPostgresProblem();
if (postgresProblem && process.env.CI === 'true') {
  throw new Error(`the stale-if-error test needs a throwaway cluster: ${postgresProblem}`);
}
if (postgresProblem)
  process.stderr.write(`[ferry tests] skipping the PostgreSQL stale-if-error test: ${postgresProblem}\n`);

const warm = { channel: 'production', platform: 'ios', runtimeVersion: '34.3.0' } as const;
const cold = { channel: 'production', platform: 'android', runtimeVersion: '34.3.0' } as const;

interface Outage {
  server: TestServer;
  /** Makes the database unreachable; the returned function brings it back. */
  begin(): () => void;
  close(): Promise<void>;
}

const outages: Record<'sqlite' | 'postgres', { skip: boolean; start: () => Promise<Outage> }> = {
  sqlite: {
    skip: false,
    start: async () => {
      const server = await startServer('sqlite');
      return { server, begin: () => takeDatabaseAway(server.app.database), close: () => server.close() };
    },
  },
  postgres: {
    skip: postgresProblem !== undefined,
    start: async () => {
      const cluster: ThrowawayPostgres = await startThrowawayPostgres();
      const server = await startServer('postgres', cluster);
      return {
        server,
        begin: () => {
          cluster.stop();
          return () => cluster.start();
        },
        close: async () => {
          await server.close();
          cluster.destroy();
        },
      };
    },
  },
};

function startServer(engine: 'sqlite' | 'postgres', cluster?: ThrowawayPostgres): Promise<TestServer> {
  return startTestServer(engine, {
    ...(cluster
      ? {
          database: {
            target: { engine: 'postgres', url: cluster.url, poolSize: 2 },
            location: cluster.url,
            drop: async () => {},
          },
        }
      : {}),
    env: {
      MANIFEST_CACHE_TTL_SECONDS: String(TTL_MS / 1000),
      MANIFEST_STALE_IF_ERROR_SECONDS: String(STALE_MS / 1000),
      MANIFEST_WARM_UP_REQUESTS: '0',
      METRICS_TOKEN,
    },
  });
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe.skipIf(outages[engine].skip)(`stale-if-error over HTTP [${engine}]`, () => {
    let outage: Outage;
    beforeAll(async () => {
      outage = await outages[engine].start();
    });
    afterAll(async () => outage?.close());

    const manifest = async (track: typeof warm | typeof cold) => {
      const response = await fetch(`${outage.server.url}/api/updates/manifest`, {
        headers: clientHeaders('expo', track),
      });
      return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
    };
    const logged = (text: string) => outage.server.logs.entries().filter((line) => String(line.msg).includes(text));
    const staleAnswers = async () =>
      sampleSum(await scrape(`${outage.server.url}/metrics`, METRICS_TOKEN), 'ferry_manifest_stale_answers_total');

    it('serves warm tracks their last signed manifest through three TTLs of outage, cold ones 503, and warm ones 503 past the limit', async () => {
      const { server } = outage;
      // The cache's clock is this process's performance.now(): the server runs in it. The entry is
      // stored by the publish (this instance keeps what it publishes), so never before `published`,
      // and served stale at least until published + TTL + limit.
      const published = performance.now();
      const payload = releasePayload({ ...warm, fingerprint: 'fp-stale' });
      await storeAssets(server, payload);
      const response = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
      expect(response.status).toBe(201);
      const before = await manifest(warm);
      expect(before.status).toBe(200);
      expect(before.headers.get('content-type')).toMatch(/^multipart\/mixed/);
      const answeredStaleBefore = await staleAnswers();

      const restore = outage.begin();
      const outageStarted = performance.now();
      let warmAnswers = 0;
      // Three TTLs of outage on the server's clock, asking all along.
      while (performance.now() < outageStarted + 3 * TTL_MS) {
        const sent = performance.now();
        const [hot, unknown] = await Promise.all([manifest(warm), manifest(cold)]);
        if (sent < published + TTL_MS + STALE_MS) {
          expect(hot.status).toBe(200);
          expect(hot.body.equals(before.body)).toBe(true);
          warmAnswers++;
        }
        expect(unknown.status).toBe(503);
        expect(unknown.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(JSON.parse(unknown.body.toString()).error.code).toBe('UNAVAILABLE');
      }
      expect(warmAnswers).toBeGreaterThan(0);
      // The warm track was served past its TTL because its reload failed: told once, counted per answer.
      await expect.poll(() => logged(STALE_WARNING).length, { timeout: HANG_GUARD_MS }).toBe(1);
      expect(logged(STALE_WARNING)[0]).toMatchObject({ level: 40, track: warm });
      expect(await staleAnswers()).toBeGreaterThan(answeredStaleBefore);

      // Past the limit, counted from the last successful load, the warm track is dropped: 503.
      await expect.poll(async () => (await manifest(warm)).status, { timeout: HANG_GUARD_MS, interval: 50 }).toBe(503);
      expect(performance.now()).toBeGreaterThan(published + TTL_MS + STALE_MS);
      expect(logged(LIMIT_WARNING)).toHaveLength(1);
      expect(logged(STALE_WARNING)).toHaveLength(1);

      // Back: the track loads again and answers the same signed manifest.
      restore();
      await expect.poll(async () => (await manifest(warm)).status, { timeout: HANG_GUARD_MS, interval: 50 }).toBe(200);
      const after = await manifest(warm);
      expect(after.body.equals(before.body)).toBe(true);
    });
  });
}
