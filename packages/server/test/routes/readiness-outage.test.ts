import { type DatabaseConnection, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/storage/database.js';
import type { DatabaseSchema } from '../../src/storage/schema.js';
import { clientHeaders } from '../support/expo-client.js';
import { releasePayload, storeAssets } from '../support/releases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
  throwawayPostgresProblem,
} from '../support/throwaway-postgres.js';
import { takeDatabaseAway } from '../support/unreachable-database.js';

/**
 * Issue 35, item 6: readiness through a database outage, over HTTP. An instance that still holds
 * manifests it may serve (stale-if-error) stays ready (`degraded`), so a readiness probe does not
 * take every instance out of the Service at once; one with nothing to serve answers 503. Liveness
 * never depends on the database.
 */
const postgresProblem = throwawayPostgresProblem();
if (postgresProblem && process.env.CI === 'true') {
  throw new Error(`the readiness outage test needs a throwaway cluster: ${postgresProblem}`);
}
if (postgresProblem)
  process.stderr.write(`[ferry tests] skipping the PostgreSQL readiness outage test: ${postgresProblem}\n`);

const warm = { channel: 'production', platform: 'ios', runtimeVersion: '35.6.0' } as const;
const cold = { channel: 'production', platform: 'android', runtimeVersion: '35.6.0' } as const;

interface Instance {
  server: TestServer;
  /** Makes the database unreachable; the returned function brings it back. */
  outage(): () => void;
  close(): Promise<void>;
}

async function startInstance(engine: 'sqlite' | 'postgres', env: Record<string, string>): Promise<Instance> {
  const settings = { env: { MANIFEST_WARM_UP_REQUESTS: '0', ...env } };
  if (engine === 'sqlite') {
    const server = await startTestServer('sqlite', settings);
    return { server, outage: () => takeDatabaseAway(server.app.database), close: () => server.close() };
  }
  const cluster: ThrowawayPostgres = await startThrowawayPostgres();
  const server = await startTestServer('postgres', {
    ...settings,
    database: {
      target: { engine: 'postgres', url: cluster.url, poolSize: 2 },
      location: cluster.url,
      drop: async () => {},
    },
  });
  return {
    server,
    outage: () => {
      cluster.stop();
      return () => cluster.start();
    },
    close: async () => {
      await server.close();
      cluster.destroy();
    },
  };
}

const ready = async (server: TestServer) => {
  const response = await fetch(`${server.url}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const alive = async (server: TestServer) => (await fetch(`${server.url}/healthz`)).status;
const manifest = async (server: TestServer, track: typeof warm | typeof cold) => {
  const response = await fetch(`${server.url}/api/updates/manifest`, { headers: clientHeaders('expo', track) });
  await response.arrayBuffer();
  return response.status;
};
const publish = async (server: TestServer) => {
  const payload = releasePayload({ ...warm, fingerprint: 'fp-readiness' });
  await storeAssets(server, payload);
  const response = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
  expect(response.status).toBe(201);
};

for (const engine of ['sqlite', 'postgres'] as const) {
  describe.skipIf(engine === 'postgres' && postgresProblem !== undefined)(
    `readiness through a database outage [${engine}]`,
    () => {
      describe('an instance holding a manifest it may serve', () => {
        let instance: Instance;
        beforeAll(async () => {
          instance = await startInstance(engine, {});
        });
        afterAll(async () => instance?.close());

        it('stays ready (degraded) and alive while the database is down, serves the cached manifest, and is ready again after', async () => {
          const { server } = instance;
          await publish(server);
          expect(await ready(server)).toEqual({ status: 200, body: { status: 'ready', database: engine } });

          const restore = instance.outage();
          const during = await ready(server);
          expect(during.status).toBe(200);
          expect(during.body).toMatchObject({ status: 'degraded', databaseReachable: false, cachedManifests: 1 });
          expect(await alive(server)).toBe(200);
          expect(await manifest(server, warm)).toBe(200);
          // What needs the database still answers 503: readiness does not pretend otherwise.
          expect(await manifest(server, cold)).toBe(503);
          const warnings = server.logs.entries().filter((line) => String(line.msg).startsWith('readiness: database'));
          expect(warnings.length).toBeGreaterThan(0);

          restore();
          await expect.poll(async () => (await ready(server)).body.status).toBe('ready');
        });
      });

      describe('an instance with nothing it could serve', () => {
        let instance: Instance;
        beforeAll(async () => {
          instance = await startInstance(engine, {});
        });
        afterAll(async () => instance?.close());

        it('answers 503 on /readyz while the database is down, and stays alive', async () => {
          const { server } = instance;
          expect((await ready(server)).status).toBe(200);
          const restore = instance.outage();
          const during = await ready(server);
          expect(during.status).toBe(503);
          expect(during.body).toMatchObject({ error: { code: 'UNAVAILABLE' } });
          expect(await alive(server)).toBe(200);
          restore();
          await expect.poll(async () => (await ready(server)).status).toBe(200);
        });
      });

      describe('with MANIFEST_STALE_IF_ERROR_SECONDS=0 (no stale answers)', () => {
        let instance: Instance;
        beforeAll(async () => {
          instance = await startInstance(engine, {
            MANIFEST_CACHE_TTL_SECONDS: '1',
            MANIFEST_STALE_IF_ERROR_SECONDS: '0',
          });
        });
        afterAll(async () => instance?.close());

        it('readiness follows the database once the cached manifests pass their TTL', async () => {
          const { server } = instance;
          await publish(server);
          const restore = instance.outage();
          await expect.poll(async () => (await ready(server)).status).toBe(503);
          expect(await manifest(server, warm)).toBe(503);
          restore();
          await expect.poll(async () => (await ready(server)).status).toBe(200);
        });
      });
    },
  );
}

/** Every query waits for ever: a database that does not answer (a partition), not one that refuses. */
function hangDatabase(database: Database): void {
  const hanging = new Kysely<DatabaseSchema>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => ({
        init: async () => {},
        acquireConnection: () => new Promise<DatabaseConnection>(() => {}),
        beginTransaction: async () => {},
        commitTransaction: async () => {},
        rollbackTransaction: async () => {},
        releaseConnection: async () => {},
        destroy: async () => {},
      }),
      createIntrospector: (kysely) => new SqliteIntrospector(kysely),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
  database.db = hanging;
  database.ephemeral = hanging;
}

describe('readiness when the database does not answer at all', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { MANIFEST_WARM_UP_REQUESTS: '0' } });
  });
  afterAll(async () => server?.close());

  it('answers (degraded) within its own deadline rather than holding the probe', async () => {
    await publish(server);
    hangDatabase(server.app.database);
    const during = await ready(server);
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({ status: 'degraded', databaseReachable: false });
    expect(server.logs.text).toContain('the database did not answer in time');
  });
});
