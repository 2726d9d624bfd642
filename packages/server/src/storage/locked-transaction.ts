import { type Kysely, SqliteAdapter, sql, type Transaction } from 'kysely';
import type { Database } from './database.js';
import type { Engine } from './engine.js';
import type { DatabaseSchema } from './schema.js';

/** A connection or a transaction: what a query runs on. */
export type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

const lockId = (name: string) => sql`hashtextextended(${name}, 0)`;

/**
 * Runs `work` in one transaction that holds the lock `name` exclusively until it ends; if `work`
 * throws, nothing it wrote is kept. PostgreSQL takes a transaction-scoped advisory lock, so only
 * holders of the same name wait; SQLite takes the database write lock up front (BEGIN IMMEDIATE),
 * which serializes every writer, other processes included.
 */
export function withExclusiveLock<T>(database: Database, name: string, work: (db: Executor) => Promise<T>): Promise<T> {
  return withExclusiveLocks(database, [name], work);
}

/**
 * withExclusiveLock for several names at once, in one transaction (a release group's tracks). On
 * PostgreSQL the locks are taken in one order, whatever order the names come in, so two
 * transactions that want overlapping sets cannot each hold one the other waits for.
 */
export async function withExclusiveLocks<T>(
  database: Database,
  names: readonly string[],
  work: (db: Executor) => Promise<T>,
): Promise<T> {
  if (database.engine === 'postgres') {
    const ordered = [...new Set(names)].sort();
    return database.db.transaction().execute(async (trx) => {
      for (const name of ordered) await sql`select pg_advisory_xact_lock(${lockId(name)})`.execute(trx);
      return work(trx);
    });
  }
  return immediateTransaction(database.db, work);
}

/** SQLite: `work` in a transaction that takes the database write lock first (BEGIN IMMEDIATE). */
function immediateTransaction<T>(db: Kysely<DatabaseSchema>, work: (db: Executor) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await work(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn);
      throw error;
    }
  });
}

/**
 * Runs `work` in one write transaction. On SQLite it begins IMMEDIATE: a deferred transaction that
 * reads and then writes fails at once (SQLITE_BUSY) when another process or connection wrote
 * meanwhile, since its snapshot is stale and waiting cannot help; taking the write lock first waits
 * for the other writer instead (busy_timeout). PostgreSQL needs nothing more than a transaction.
 */
export async function withWriteTransaction<T>(
  db: Kysely<DatabaseSchema>,
  work: (trx: Executor) => Promise<T>,
): Promise<T> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return db.transaction().execute(work);
  return immediateTransaction(db, work);
}

/**
 * Inside a transaction, holds the lock `name` shared until the transaction ends: it waits for an
 * exclusive holder to finish, and keeps one out meanwhile. SQLite needs nothing: a write
 * transaction (withExclusiveLock) already excludes every other.
 */
export async function holdShared(db: Executor, engine: Engine, name: string): Promise<void> {
  if (engine === 'postgres') await sql`select pg_advisory_xact_lock_shared(${lockId(name)})`.execute(db);
}
