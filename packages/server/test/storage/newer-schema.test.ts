import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openMigratedDatabase } from '../../src/storage/database.js';
import { createTestDatabase, describeEachEngine, type TestDatabase } from '../support/engines.js';
import { clientHeaders } from '../support/expo-client.js';
import { releasePayload, storeAssets } from '../support/releases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 35, item 6: two versions at once. During a rolling upgrade the new version migrates the
 * database while the previous one keeps serving, and a previous-version instance may start again
 * (a rescheduled pod, a rollback) on the newer schema. Here the database holds a migration this
 * version does not know, with the expand-only change it made (a nullable column): the instance
 * starts, says so in its log, and publishes and serves as usual.
 */
const NEWER = '999_from_a_newer_version';

describeEachEngine('an instance on a database a newer version migrated', (engine) => {
  let testDb: TestDatabase;
  let server: TestServer;
  beforeAll(async () => {
    testDb = await createTestDatabase(engine);
    const database = await openMigratedDatabase(testDb.target);
    try {
      // What a newer version's expand-only migration leaves: a new nullable column, and its record.
      await sql`alter table releases add column added_by_newer_version text`.execute(database.db);
      await sql`insert into kysely_migration (name, timestamp) values (${NEWER}, ${new Date().toISOString()})`.execute(
        database.db,
      );
    } finally {
      await database.close();
    }
    server = await startTestServer(engine, { database: testDb, env: { MANIFEST_WARM_UP_REQUESTS: '0' } });
  });
  afterAll(async () => {
    await server?.close();
    await testDb?.drop();
  });

  it('starts, tells which migrations it does not know, and publishes and serves', async () => {
    const warning = server.logs.entries().find((line) => String(line.msg).includes('migrated by a newer Ferry'));
    expect(warning).toMatchObject({ level: 40, migrations: [NEWER] });
    expect(await (await fetch(`${server.url}/readyz`)).json()).toMatchObject({ status: 'ready' });

    const track = { channel: 'production', platform: 'ios', runtimeVersion: '35.6.1' } as const;
    const payload = releasePayload({ ...track, fingerprint: 'fp-newer-schema' });
    await storeAssets(server, payload);
    const published = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
    expect(published.status).toBe(201);
    const manifest = await fetch(`${server.url}/api/updates/manifest`, { headers: clientHeaders('expo', track) });
    expect(manifest.status).toBe(200);
    await manifest.arrayBuffer();
  });

  it('leaves the newer migration recorded, and applies nothing in its place', async () => {
    const database = await openMigratedDatabase(testDb.target);
    try {
      const names = await database.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect(names.map((row) => (row as { name: string }).name)).toContain(NEWER);
    } finally {
      await database.close();
    }
  });
});
