import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_APPLICATION_NAME } from '../../src/ota/manifest/postgres-release-notifications.js';
import { createTestDatabase, describeEachEngine, type TestDatabase } from '../support/engines.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let counter = 0;
const freshTrack = () => ({
  channel: 'production' as const,
  platform: 'ios' as const,
  runtimeVersion: `8.${++counter}.0(${counter})`,
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

const publish = (server: TestServer, track: ReturnType<typeof freshTrack>) =>
  publishRelease(server, { ...track, launch: fileOf(`bundle ${Math.random()}`, 'application/javascript', '.bundle') });

// Two instances over one database, as in a scaled-out deployment. Each caches the newest release
// per track; B must drop its entry when A stores a release.
describeEachEngine('manifest cache across instances', (engine) => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  // PostgreSQL: a long TTL, so only a notification can explain B seeing the publish.
  // SQLite has no notifications: there the TTL is the bound, and it is what is tested.
  const ttl = engine === 'postgres' ? '3600' : '1';
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    a = await startTestServer(engine, { database, env: { MANIFEST_CACHE_TTL_SECONDS: ttl } });
    b = await startTestServer(engine, { database, env: { MANIFEST_CACHE_TTL_SECONDS: ttl } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('A serves its own publish at once', async () => {
    const track = freshTrack();
    expect(await manifestId(a, track)).toBeNull();
    const { id } = await publish(a, track);
    expect(await manifestId(a, track)).toBe(id);
  });

  if (engine === 'postgres') {
    it('B serves a release published through A long before its cache entry expires (LISTEN/NOTIFY)', async () => {
      const track = freshTrack();
      const { id: first } = await publish(a, track);
      // B caches the first release…
      expect(await manifestId(b, track)).toBe(first);
      expect(await manifestId(b, track)).toBe(first);
      // …and drops it when A publishes the next.
      const { id: second } = await publish(a, track);
      await expect.poll(() => manifestId(b, track), { interval: 20 }).toBe(second);
    });

    it('B also hears about rollbacks through A', async () => {
      const track = freshTrack();
      const { id: first } = await publish(a, track);
      const { id: second } = await publish(a, track);
      await expect.poll(() => manifestId(b, track), { interval: 20 }).toBe(second);
      const rollback = await a.authed('/api/updates/rollback', {
        method: 'POST',
        body: JSON.stringify({ ...track, to: first }),
      });
      expect(rollback.status).toBe(201);
      const { release } = await rollback.json();
      expect(await manifestId(a, track)).toBe(release.id);
      await expect.poll(() => manifestId(b, track), { interval: 20 }).toBe(release.id);
    });

    it('B reconnects its listener after losing the connection and still hears publishes', async () => {
      const track = freshTrack();
      const { id: first } = await publish(a, track);
      expect(await manifestId(b, track)).toBe(first);
      const admin = new pg.Client({ connectionString: database.location });
      await admin.connect();
      try {
        // Kill every listener on this database (A's and B's); both must come back on their own.
        const killed = await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()',
          [LISTENER_APPLICATION_NAME],
        );
        expect(killed.rowCount).toBe(2);
        await expect
          .poll(
            async () =>
              (
                await admin.query(
                  'select count(*)::int as n from pg_stat_activity where application_name = $1 and datname = current_database()',
                  [LISTENER_APPLICATION_NAME],
                )
              ).rows[0].n,
            { interval: 50 },
          )
          .toBe(2);
      } finally {
        await admin.end();
      }
      // B caches again over its new listener; only a notification can now replace the entry.
      expect(await manifestId(b, track)).toBe(first);
      const { id: second } = await publish(a, track);
      await expect.poll(() => manifestId(b, track), { interval: 20 }).toBe(second);
    });
  } else {
    it('B serves a release published through A once its cache entry expires (TTL)', async () => {
      const track = freshTrack();
      const { id: first } = await publish(a, track);
      expect(await manifestId(b, track)).toBe(first);
      const { id: second } = await publish(a, track);
      await expect.poll(() => manifestId(b, track), { interval: 100 }).toBe(second);
    });
  }
});

describe('manifest cache', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.close());

  it('a publish racing a cold read never leaves the older release cached', async () => {
    const track = freshTrack();
    await publish(server, track);
    for (let round = 0; round < 5; round++) {
      // A publish empties the track's cache entry: the reads below start cold and race the next one.
      await publish(server, track);
      const reads = Array.from({ length: 10 }, () => manifestId(server, track));
      const { id } = await publish(server, track);
      await Promise.all(reads);
      expect(await manifestId(server, track)).toBe(id);
    }
  });
});
