import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openMigratedDatabase } from '../../src/storage/database.js';
import { pendingStateRow } from '../support/authentication-state-row.js';
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

  /** A state row whose id records synchronous_commit as the statement that wrote it saw it. */
  const insertState = (db: Database['db'], tag: string) =>
    db
      .insertInto('certificate_authentication_states')
      .values(
        pendingStateRow(sql<string>`${tag} || ':' || current_setting('synchronous_commit')`, `${tag}-${Date.now()}`),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
  const setting = async (db: Database['db']) =>
    (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]?.synchronous_commit;

  it('commits synchronously, except what is written through the ephemeral handle', async () => {
    expect((await insertState(database.db, 'main')).id).toBe('main:on');
    expect((await insertState(database.ephemeral, 'ephemeral')).id).toBe('ephemeral:off');
    // In a transaction of the ephemeral handle too, which sets it once at its start.
    const inTransaction = await database.ephemeral.transaction().execute((trx) => insertState(trx, 'transaction'));
    expect(inTransaction.id).toBe('transaction:off');
    // SET LOCAL ends with its transaction: the pool's connections stay synchronous for everyone else.
    for (let i = 0; i < 3; i++) expect(await setting(database.db)).toBe('on');
  });

  it('a write through the ephemeral handle that fails leaves its transaction rolled back', async () => {
    const { id } = await insertState(database.ephemeral, 'twice');
    const duplicate = database.ephemeral
      .insertInto('certificate_authentication_states')
      .values(pendingStateRow(id, `dup-${Date.now()}`))
      .execute();
    await expect(duplicate).rejects.toMatchObject({ code: '23505' });
    // The connection went back to the pool outside any transaction: the next statements work.
    expect((await insertState(database.ephemeral, 'after')).id).toBe('after:off');
    expect(await setting(database.db)).toBe('on');
  });

  it('holds one pool, opened on demand up to its size: one connection after start', async () => {
    const count = async () =>
      Number(
        (
          await sql<{
            n: string;
          }>`select count(*) as n from pg_stat_activity where datname = current_database()`.execute(database.db)
        ).rows[0]?.n,
      );
    const fresh = await openMigratedDatabase(testDb.target);
    try {
      // The migration's own connection is closed; the pool keeps the one start-up checked.
      expect(fresh.pool?.totalCount).toBe(1);
      expect(fresh.pool?.options.max).toBe(3);
      const before = await count();
      // Three queries at once need three connections; a fourth waits for one of them.
      await Promise.all(Array.from({ length: 4 }, () => sql`select pg_sleep(0.05)`.execute(fresh.db)));
      expect(fresh.pool?.totalCount).toBe(3);
      expect(await count()).toBe(before + 2);
    } finally {
      await fresh.close();
    }
  });

  it('a write through one handle is seen at once through the other', async () => {
    const { id } = await insertState(database.ephemeral, `seen-${Date.now()}`);
    const row = await database.db
      .selectFrom('certificate_authentication_states')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row?.id).toBe(id);
  });
});
