/**
 * Ferry behind PgBouncer in transaction mode (docs/deployment.md, "Behind a pooler"): DATABASE_URL
 * goes through the pooler, DATABASE_DIRECT_URL to PostgreSQL for what needs a session (migrations,
 * LISTEN). Two instances on a throwaway cluster behind a PgBouncer of the test's own: each applies
 * migrations, publishes and serves, hears the other's publishes, and the asynchronous-commit
 * writes keep synchronous_commit to their own transactions although PgBouncer hands the same
 * server connections to everyone.
 *
 * Needs a PgBouncer binary: `pgbouncer` on PATH or /usr/sbin/pgbouncer (`apt-get install pgbouncer`),
 * or FERRY_TEST_PGBOUNCER naming one (.ci/run installs Debian's); it fails in CI without one, and
 * is skipped with a printed reason elsewhere.
 */

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/free-port.js';
import { type Database, openMigratedDatabase } from '../../src/storage/database.js';
import { pendingStateRow } from '../support/authentication-state-row.js';
import type { TestDatabase } from '../support/engines.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
  throwawayPostgresProblem,
} from '../support/throwaway-postgres.js';

const pgbouncerBinary = (): string | undefined => {
  const named = process.env.FERRY_TEST_PGBOUNCER;
  if (named) return named;
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin']) {
    const candidate = path.join(dir, 'pgbouncer');
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
};
const binary = pgbouncerBinary();
const problem = throwawayPostgresProblem() ?? (binary ? undefined : 'no pgbouncer binary (FERRY_TEST_PGBOUNCER)');
if (problem && !binary && process.env.CI === 'true') throw new Error(`CI needs PgBouncer for this test: ${problem}`);
if (problem) process.stderr.write(`[ferry tests] skipping the PgBouncer test: ${problem}\n`);

/** A PgBouncer in transaction mode in front of `cluster`, run as the postgres user (it refuses root). */
async function startPgbouncer(cluster: ThrowawayPostgres): Promise<{ url: string; stop(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-pgbouncer-'));
  const port = await freePort();
  const upstream = new URL(cluster.url);
  fs.writeFileSync(path.join(dir, 'users.txt'), '"postgres" ""\n');
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=127.0.0.1 port=${upstream.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      // Fewer server connections than the two instances' pools together: they must share them.
      'default_pool_size = 2',
      'max_client_conn = 100',
      '',
    ].join('\n'),
  );
  const asPostgres = process.getuid?.() === 0;
  if (asPostgres) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const child = spawn(
    asPostgres ? 'runuser' : (binary as string),
    [...(asPostgres ? ['-u', 'postgres', '--', binary as string] : []), path.join(dir, 'pgbouncer.ini')],
    // Its own process group: stopping it ends runuser and PgBouncer together.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const url = `postgres://postgres@127.0.0.1:${port}${upstream.pathname}`;
  // Ready when it answers a query (through to PostgreSQL); it exits at once on a bad configuration.
  // Polled: the test's hang guard bounds the wait.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited ${child.exitCode}:\n${output}`);
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    const ready = await client
      .connect()
      .then(() => client.query('select 1'))
      .then(
        () => true,
        () => false,
      );
    await client.end().catch(() => {});
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: () => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
const freshTrack = () => ({
  channel: 'production' as const,
  platform: 'android' as const,
  runtimeVersion: `6.${++counter}.0(${counter})`,
});

const manifestId = async (server: TestServer, track: ReturnType<typeof freshTrack>): Promise<string | null> => {
  const response = await fetch(`${server.url}/api/updates/manifest`, {
    headers: {
      accept: 'application/json',
      'expo-platform': track.platform,
      'expo-runtime-version': track.runtimeVersion,
      'expo-channel-name': track.channel,
    },
  });
  if (response.status === 204) return null;
  return (await response.json()).id;
};

describe.skipIf(problem !== undefined)('behind PgBouncer in transaction mode, with DATABASE_DIRECT_URL', () => {
  let cluster: ThrowawayPostgres;
  let bouncer: { url: string; stop(): void };
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    bouncer = await startPgbouncer(cluster);
    database = {
      target: { engine: 'postgres', url: bouncer.url, directUrl: cluster.url, poolSize: 3 },
      location: cluster.url,
      drop: async () => {},
    };
    // A long TTL: only a notification can explain B seeing A's publish.
    const env = { MANIFEST_CACHE_TTL_SECONDS: '3600' };
    a = await startTestServer('postgres', { database, env });
    b = await startTestServer('postgres', { database, env });
  });
  afterAll(async () => {
    try {
      await Promise.all([a?.close(), b?.close()]);
    } finally {
      bouncer?.stop();
      cluster?.destroy();
    }
  });

  it('two instances migrate, publish and serve through it, and hear each other over the direct LISTEN', async () => {
    const track = freshTrack();
    const publish = () =>
      publishRelease(a, { ...track, launch: fileOf(`bundle ${Math.random()}`, 'application/javascript', '.bundle') });
    const { id: first } = await publish();
    expect(await manifestId(a, track)).toBe(first);
    expect(await manifestId(b, track)).toBe(first);
    const { id: second } = await publish();
    await expect.poll(() => manifestId(b, track)).toBe(second);
  });

  it('asynchronous-commit writes keep the setting inside their transaction on shared server connections', async () => {
    const handle: Database = await openMigratedDatabase(database.target);
    try {
      const insert = (db: Database['db'], tag: string) =>
        db
          .insertInto('certificate_authentication_states')
          .values(pendingStateRow(sql<string>`${tag} || ':' || current_setting('synchronous_commit')`, tag))
          .returning('id')
          .executeTakeFirstOrThrow();
      // Interleaved, many at once: PgBouncer's two server connections serve both kinds in turn.
      const writes = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          i % 2 ? insert(handle.ephemeral, `ephemeral-${i}`) : insert(handle.db, `main-${i}`),
        ),
      );
      for (const [i, { id }] of writes.entries()) expect(id).toBe(i % 2 ? `ephemeral-${i}:off` : `main-${i}:on`);
    } finally {
      await handle.close();
    }
  });
});
