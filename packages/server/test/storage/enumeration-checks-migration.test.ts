import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/storage/database.js';
import type { DatabaseSchema } from '../../src/storage/schema.js';
import { createTestDatabase, describeEachEngine, type EngineName, type TestDatabase } from '../support/engines.js';
import { migrateTestDatabase } from '../support/migrate-to.js';

/**
 * Migration 021 on a database made by today's migrations (001–020), holding a row of every table
 * it rebuilds (SQLite) or alters (PostgreSQL): the rows survive unchanged, a document, vendor or
 * role no list names yet can be stored, and every other rule the tables had still holds.
 */

const T0 = Date.parse('2026-11-01T00:00:00Z');
const ids = {
  assignment: randomUUID(),
  state: randomUUID(),
  issuance: randomUUID(),
  token: randomUUID(),
};

/** One row per table, as the service stores them before the migration. */
async function insertToday(db: Kysely<DatabaseSchema>): Promise<void> {
  await db
    .insertInto('assignments')
    .values({ id: ids.assignment, user_id: 'user-1', certificate_vendor: 'VENDOR_B', title: 'Proof', created_at: T0 })
    .execute();
  await db
    .insertInto('certificate_authentication_states')
    .values({
      id: ids.state,
      state_hash: 'hash-1',
      user_id: 'user-1',
      vendor: 'VENDOR_B',
      document: 'family-relations',
      provider: 'provider_c',
      assignment_id: ids.assignment,
      status: 'issued',
      lease_until: null,
      expires_at: T0 + 270_000,
      created_at: T0,
    })
    .execute();
  await db
    .insertInto('certificate_issuances')
    .values({
      id: ids.issuance,
      authentication_state_id: ids.state,
      user_id: 'user-1',
      assignment_id: ids.assignment,
      vendor: 'VENDOR_B',
      document: 'family-relations',
      object_key: 'certificates/ab/x.pdf',
      byte_size: 1234,
      vendor_reference: 'SIM-B-1',
      created_at: T0,
      expires_at: T0 + 7 * 86_400_000,
      deleted_at: null,
    })
    .execute();
  await db
    .insertInto('operator_tokens')
    .values({
      id: ids.token,
      name: 'alice',
      role: 'admin',
      token_hash: 'token-hash-1',
      created_at: T0,
      created_by: 'bootstrap',
      revoked_at: null,
      last_used_at: T0,
    })
    .execute();
  await db
    .insertInto('operator_sessions')
    .values({
      id_hash: 'session-hash-1',
      kind: 'token',
      token_id: ids.token,
      subject: ids.token,
      name: 'alice',
      role: 'viewer',
      created_at: T0,
      expires_at: T0 + 3_600_000,
    })
    .execute();
}

const TABLES = [
  'assignments',
  'certificate_authentication_states',
  'certificate_issuances',
  'operator_tokens',
  'operator_sessions',
] as const;

const everyRow = async (db: Kysely<DatabaseSchema>) =>
  Object.fromEntries(
    await Promise.all(TABLES.map(async (table) => [table, await db.selectFrom(table).selectAll().execute()] as const)),
  );

/** The indexes (by name) of the tables the migration rebuilds, named ones only. */
async function indexesOf(database: Database): Promise<string[]> {
  const names =
    database.engine === 'postgres'
      ? await sql<{ name: string }>`
          select indexname as name from pg_indexes
          where tablename in ('assignments', 'certificate_authentication_states', 'certificate_issuances',
            'operator_tokens', 'operator_sessions')`.execute(database.db)
      : await sql<{ name: string }>`
          select name from sqlite_master
          where type = 'index' and tbl_name in ('assignments', 'certificate_authentication_states',
            'certificate_issuances', 'operator_tokens', 'operator_sessions')`.execute(database.db);
  return names.rows
    .map((row) => row.name)
    .filter((name) => !/^sqlite_autoindex_|_pkey$|_key$/.test(name))
    .sort();
}

/** What a statement that storage refuses rejects with (the engines' own words differ). */
const refused = (work: Promise<unknown>) => expect(work).rejects.toThrow(/constraint|violates|NOT NULL|FOREIGN KEY/i);

describeEachEngine(
  'migration 021: enumerations are checked by the application, not the database',
  (engine: EngineName) => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(engine);
    });
    afterEach(async () => database.drop());

    const migrate = (last?: string) => migrateTestDatabase(database, engine, last);

    const withDatabase = async <T>(work: (database: Database) => Promise<T>): Promise<T> => {
      const opened = openDatabase(database.target);
      try {
        return await work(opened);
      } finally {
        await opened.close();
      }
    };

    it('keeps every row and rule, and stores values no list named before', async () => {
      await migrate('020_bundle_patches');
      const before = await withDatabase(async ({ db }) => {
        await insertToday(db);
        // Today's checks refuse a vendor the contracts do not list: what the migration is for.
        await refused(
          db
            .insertInto('assignments')
            .values({
              id: randomUUID(),
              user_id: 'user-2',
              certificate_vendor: 'VENDOR_C',
              title: null,
              created_at: T0,
            })
            .execute(),
        );
        return everyRow(db);
      });
      const indexesBefore = await withDatabase(indexesOf);

      await migrate('021_drop_enumeration_checks');

      await withDatabase(async (opened) => {
        const { db } = opened;
        expect(await everyRow(db)).toEqual(before);
        expect(await indexesOf(opened)).toEqual(indexesBefore);

        // A vendor, a document and a role that no list names yet are stored.
        const assignment = randomUUID();
        const state = randomUUID();
        const token = randomUUID();
        await db
          .insertInto('assignments')
          .values({ id: assignment, user_id: 'user-2', certificate_vendor: 'VENDOR_C', title: null, created_at: T0 })
          .execute();
        await db
          .insertInto('certificate_authentication_states')
          .values({
            id: state,
            state_hash: 'hash-2',
            user_id: 'user-2',
            vendor: 'VENDOR_C',
            document: 'basic-certificate',
            provider: 'provider_a',
            assignment_id: assignment,
            status: 'pending',
            lease_until: null,
            expires_at: T0 + 300_000,
            created_at: T0,
          })
          .execute();
        await db
          .insertInto('certificate_issuances')
          .values({
            id: randomUUID(),
            authentication_state_id: state,
            user_id: 'user-2',
            assignment_id: assignment,
            vendor: 'VENDOR_C',
            document: 'basic-certificate',
            object_key: 'certificates/cd/y.pdf',
            byte_size: 1,
            vendor_reference: null,
            created_at: T0,
            expires_at: T0 + 1,
            deleted_at: null,
          })
          .execute();
        await db
          .insertInto('operator_tokens')
          .values({
            id: token,
            name: 'bob',
            role: 'auditor' as never,
            token_hash: 'token-hash-2',
            created_at: T0,
            created_by: 'alice',
            revoked_at: null,
            last_used_at: null,
          })
          .execute();
        await db
          .insertInto('operator_sessions')
          .values({
            id_hash: 'session-hash-2',
            kind: 'oidc',
            token_id: null,
            subject: 'bob@example.com',
            name: 'bob',
            role: 'auditor' as never,
            created_at: T0,
            expires_at: T0 + 1,
          })
          .execute();
        expect(
          await db
            .selectFrom('certificate_issuances')
            .select(['vendor', 'document'])
            .where('user_id', '=', 'user-2')
            .execute(),
        ).toEqual([{ vendor: 'VENDOR_C', document: 'basic-certificate' }]);

        // What the tables kept: NOT NULL, keys, foreign keys, and the checks that enumerate nothing of the issue's.
        await refused(
          db
            .insertInto('assignments')
            .values({ id: randomUUID(), user_id: 'u', certificate_vendor: null as never, title: null, created_at: T0 })
            .execute(),
        );
        await refused(
          db
            .insertInto('assignments')
            .values({ id: randomUUID(), user_id: '', certificate_vendor: 'VENDOR_A', title: null, created_at: T0 })
            .execute(),
        );
        await refused(
          db
            .insertInto('assignments')
            .values({ id: assignment, user_id: 'u', certificate_vendor: 'VENDOR_A', title: null, created_at: T0 })
            .execute(),
        );
        await refused(
          db
            .updateTable('certificate_authentication_states')
            .set({ status: 'lost' as never })
            .where('id', '=', state)
            .execute(),
        );
        await refused(
          db
            .updateTable('certificate_authentication_states')
            .set({ assignment_id: randomUUID() })
            .where('id', '=', state)
            .execute(),
        );
        await refused(
          db
            .updateTable('certificate_issuances')
            .set({ authentication_state_id: ids.state })
            .where('user_id', '=', 'user-2')
            .execute(),
        );
        await refused(
          db
            .updateTable('operator_sessions')
            .set({ token_id: randomUUID() })
            .where('id_hash', '=', 'session-hash-2')
            .execute(),
        );
        await refused(
          db
            .updateTable('operator_sessions')
            .set({ kind: 'password' as never })
            .where('id_hash', '=', 'session-hash-2')
            .execute(),
        );
        await refused(db.updateTable('operator_tokens').set({ name: 'alice' }).where('id', '=', token).execute());
      });
    });

    it('leaves the update policy range and the platforms to storage as well as the API', async () => {
      await migrate();
      await withDatabase(async ({ db }) => {
        const release = (overrides: { platform?: string; update_policy?: number | null }) =>
          db
            .insertInto('releases')
            .values({
              id: randomUUID(),
              channel: 'production',
              platform: overrides.platform ?? 'ios',
              runtime_version: '1.0.0',
              launch_asset: JSON.stringify({ hash: 'h' }),
              assets: JSON.stringify([]),
              ota_config: null,
              update_policy: overrides.update_policy ?? null,
              metadata: JSON.stringify({}),
              created_at: T0,
            })
            .execute();
        await release({ update_policy: 3 });
        await refused(release({ update_policy: 4 }));
        await refused(release({ update_policy: 0 }));
        await refused(release({ platform: 'web' }));
      });
    });
  },
);
