import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releasePayload, storeAssets } from '../support/releases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
  throwawayPostgresProblem,
} from '../support/throwaway-postgres.js';

const problem = throwawayPostgresProblem();
if (problem && process.env.CI === 'true') throw new Error(`the outage test needs a throwaway cluster: ${problem}`);
if (problem) process.stderr.write(`[ferry tests] skipping the PostgreSQL outage test: ${problem}\n`);

const track = { channel: 'production', platform: 'ios', runtimeVersion: '7.0.0(1)' } as const;
const manifestHeaders = {
  'expo-platform': track.platform,
  'expo-runtime-version': track.runtimeVersion,
  'expo-channel-name': track.channel,
  'expo-protocol-version': '1',
  accept: 'multipart/mixed',
};

describe.skipIf(problem !== undefined)('a PostgreSQL outage', () => {
  let cluster: ThrowawayPostgres;
  let server: TestServer;
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    server = await startTestServer('postgres', {
      database: {
        target: { engine: 'postgres', url: cluster.url, poolSize: 2 },
        location: cluster.url,
        drop: async () => {},
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    cluster?.destroy();
  });

  const publish = async (fingerprint: string) => {
    const payload = releasePayload({ ...track, fingerprint });
    await storeAssets(server, payload);
    return server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
  };
  const manifest = () => fetch(`${server.url}/api/updates/manifest`, { headers: manifestHeaders });

  /** Requests of every kind that needs the database, sent over and over until `until` settles. */
  async function load(until: Promise<unknown>): Promise<Map<number, number>> {
    const statuses = new Map<number, number>();
    let done = false;
    void until.finally(() => {
      done = true;
    });
    const requests = [
      () => publish('fp-outage'),
      () =>
        server.authed(
          `/api/updates/releases?channel=production&platform=ios&runtimeVersion=${encodeURIComponent(track.runtimeVersion)}`,
        ),
      () =>
        fetch(
          `${server.url}/api/updates/baseline-fingerprint?platform=ios&runtimeVersion=${encodeURIComponent(track.runtimeVersion)}`,
        ),
      () => fetch(`${server.url}/readyz`),
    ];
    const client = async (offset: number) => {
      for (let i = offset; !done; i++) {
        const response = await requests[i % requests.length]!();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) {
          expect(response.status).toBe(503);
          expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
          expect((await response.json()).error.code).toBe('UNAVAILABLE');
        } else {
          await response.arrayBuffer();
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(client));
    return statuses;
  }

  it('answers 503 with Retry-After while it is down, keeps serving cached manifests, and recovers', async () => {
    expect((await publish('fp-1')).status).toBe(201);
    const before = await manifest();
    expect(before.status).toBe(200);
    await before.arrayBuffer();

    // Down: every request that needs the database answers 503; none answers 500.
    cluster.stop();
    const duringOutage = await load(
      (async () => {
        // Enough requests to hit every endpoint on every connection of the pool several times.
        for (let i = 0; i < 40; i++) {
          const response = await server.authed(
            '/api/updates/releases?channel=production&platform=ios&runtimeVersion=x',
          );
          await response.arrayBuffer();
        }
      })(),
    );
    expect([...duringOutage.keys()].filter((status) => status >= 500)).toEqual([503]);
    expect(duringOutage.get(201)).toBeUndefined();
    const cached = await manifest();
    expect(cached.status).toBe(200);
    await cached.arrayBuffer();

    // Back up: readiness returns without a restart of Ferry, and the next publish succeeds. (While
    // the database was down the instance stayed ready, `degraded`, for the manifest it holds.)
    cluster.start();
    const recovered = (async () => {
      for (;;) {
        const ready = await fetch(`${server.url}/readyz`);
        const body = (await ready.json()) as { status?: string };
        if (body.status === 'ready') return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const aroundRestart = await load(recovered);
    expect([...aroundRestart.keys()].filter((status) => status >= 500 && status !== 503)).toEqual([]);
    const after = await publish('fp-1');
    expect(after.status).toBe(201);
    expect(await server.releaseStore.count()).toBeGreaterThanOrEqual(2);
  });
});
