import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openMigratedDatabase } from '../../src/storage/database.js';
import { createTestDatabase, describeEachEngine, type TestDatabase } from '../support/engines.js';

describeEachEngine('Database', (engine) => {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase(engine);
    // Test databases come with a pool of 3 (support/engines.ts).
    database = await openMigratedDatabase(testDb.target);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  if (engine === 'sqlite') {
    it('the ephemeral handle is the database itself', () => {
      expect(database.ephemeral).toBe(database.db);
    });
    return;
  }

  it('commits synchronously, except through the ephemeral handle', async () => {
    const setting = async (db: Database['db']) =>
      (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]?.synchronous_commit;
    expect(await setting(database.db)).toBe('on');
    expect(await setting(database.ephemeral)).toBe('off');
  });

  it('opens every connection of both pools at start and keeps them', async () => {
    const count = async () =>
      Number(
        (
          await sql<{
            n: string;
          }>`select count(*) as n from pg_stat_activity where datname = current_database()`.execute(database.db)
        ).rows[0]?.n,
      );
    expect(await count()).toBe(6);
    expect(database.pool?.totalCount).toBe(3);
  });

  it('a write through one handle is seen at once through the other', async () => {
    const id = `state-${Date.now()}`;
    await database.ephemeral
      .insertInto('certificate_authentication_states')
      .values({
        id,
        state_hash: id,
        user_id: 'u',
        vendor: 'VENDOR_A',
        document: 'resident-certificate',
        provider: 'provider_a',
        assignment_id: null,
        status: 'pending',
        lease_until: null,
        expires_at: Date.now() + 60_000,
        created_at: Date.now(),
      })
      .execute();
    const row = await database.db
      .selectFrom('certificate_authentication_states')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row?.id).toBe(id);
  });
});
