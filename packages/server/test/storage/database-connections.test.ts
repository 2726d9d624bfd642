/**
 * What Ferry instances cost a real PostgreSQL, on a cluster of the test's own with a small
 * max_connections: an instance opens its pool on demand, at most DATABASE_POOL_SIZE + 1 connections
 * (the pool and the LISTEN connection) however busy it is, so instances at the default fit the
 * budget the docs give; one more is refused, and its start-up ends with a message that says so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/free-port.js';
import { LISTENER_APPLICATION_NAME } from '../../src/ota/manifest/postgres-release-notifications.js';
import { DEFAULT_POOL_SIZE } from '../../src/storage/database.js';
import { type SpawnedServer, spawnServer } from '../support/spawn-server.js';
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
  throwawayPostgresProblem,
} from '../support/throwaway-postgres.js';

const problem = throwawayPostgresProblem();
if (problem && process.env.CI === 'true') throw new Error(`the connection test needs a throwaway cluster: ${problem}`);
if (problem) process.stderr.write(`[ferry tests] skipping the PostgreSQL connection test: ${problem}\n`);

/** Instances that fit, each at its most: the pool at DATABASE_POOL_SIZE and the LISTEN connection. */
const INSTANCES = 2;
const PER_INSTANCE = DEFAULT_POOL_SIZE + 1;
/** This test's own connection, which watches and holds the lock. */
const ADMIN = 1;

describe.skipIf(problem !== undefined)('PostgreSQL connections of Ferry instances', () => {
  let cluster: ThrowawayPostgres;
  let admin: pg.Client;
  const servers: SpawnedServer[] = [];
  const dirs: string[] = [];

  /** An OTA instance on the cluster with the default pool size; its pool's connections carry `name`. */
  const startInstance = (name: string, url = cluster.url) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-connections-'));
    dirs.push(dataDir);
    const databaseUrl = new URL(url);
    databaseUrl.searchParams.set('application_name', name);
    const server = spawnServer({ FERRY_AREAS: 'ota', DATA_DIR: dataDir, DATABASE_URL: databaseUrl.toString() });
    servers.push(server);
    return server;
  };

  /** Connections to the cluster's database by application name, as PostgreSQL counts them now. */
  const connections = async (): Promise<Record<string, number>> => {
    // Inside a transaction pg_stat_activity keeps its first snapshot; this takes a new one.
    await admin.query('select pg_stat_clear_snapshot()');
    const { rows } = await admin.query<{ name: string; n: number }>(
      `select application_name as name, count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() group by application_name`,
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.n]));
  };

  beforeAll(async () => {
    // No slots kept for superusers (the instances connect as one): every slot is in the budget.
    cluster = await startThrowawayPostgres({
      settings: { max_connections: INSTANCES * PER_INSTANCE + ADMIN, superuser_reserved_connections: 0 },
    });
    admin = new pg.Client({ connectionString: cluster.url, application_name: 'test-admin' });
    await admin.connect();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    await admin?.end().catch(() => {});
    cluster?.destroy();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an instance opens its pool on demand: after start it holds one pooled connection and the listener', async () => {
    const first = startInstance('ferry-a');
    await first.listening;
    // The migration's connection is closed at start; its backend may take a moment to go.
    await expect.poll(connections).toEqual({ 'ferry-a': 1, [LISTENER_APPLICATION_NAME]: 1 });
  });

  it(`${INSTANCES} busy instances hold DATABASE_POOL_SIZE + 1 each and all fit; one more is refused, and says so`, async () => {
    const second = startInstance('ferry-b');
    const urls = [await servers[0]!.listening, await second.listening];

    // Every read of a release waits on this lock, holding a pooled connection meanwhile: requests
    // for distinct tracks (no shared read) take every connection the pools may open. (Not more: a
    // request queued for a connection gives up after the connect timeout, a time limit.)
    await admin.query('begin');
    await admin.query('lock table releases in access exclusive mode');
    const waiting = urls.flatMap((url) =>
      Array.from({ length: DEFAULT_POOL_SIZE }, (_, i) =>
        fetch(
          `${url}/api/updates/baseline-fingerprint?platform=ios&runtimeVersion=${encodeURIComponent(`9.${i}.0(1)`)}`,
        ),
      ),
    );
    await expect.poll(connections).toEqual({
      'ferry-a': DEFAULT_POOL_SIZE,
      'ferry-b': DEFAULT_POOL_SIZE,
      [LISTENER_APPLICATION_NAME]: INSTANCES,
    });

    // The cluster is full: a third instance cannot open a connection, and its start-up says why.
    const third = startInstance('ferry-c');
    expect(await third.exited).toBe(1);
    expect(third.output()).toMatch(
      /ferry: cannot start: PostgreSQL at 127\.0\.0\.1:\d+ \(DATABASE_URL\) refused the connection: too many clients .*lower DATABASE_POOL_SIZE or run fewer instances, or raise max_connections/,
    );
    expect(third.output()).not.toMatch(/Plugin did not start in time/);

    // The instances that fit answer every request once the lock is gone (no release: 404).
    await admin.query('commit');
    const statuses = await Promise.all(waiting.map(async (response) => (await response).status));
    expect(statuses).toEqual(waiting.map(() => 404));

    // Stopped, they give their connections back.
    await Promise.all(servers.map((server) => server.stop()));
    await expect.poll(connections).toEqual({});
  });

  it.each([
    [
      'a database that does not exist',
      () => `${cluster.url.replace(/\/postgres$/, '/no_such_database')}`,
      /the database "no_such_database" does not exist/,
    ],
    [
      'a port nothing listens on',
      async () => `postgres://postgres@127.0.0.1:${await freePort()}/postgres`,
      /refused the connection: nothing listens there/,
    ],
  ])('%s: start-up exits 1 with the cause', async (_name, url, cause) => {
    const server = startInstance('ferry-refused', await url());
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/ferry: cannot start: PostgreSQL at 127\.0\.0\.1:\d+ \(DATABASE_URL\)/);
    expect(server.output()).toMatch(cause);
  });
});
