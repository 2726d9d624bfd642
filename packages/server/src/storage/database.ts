import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Sqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect, sql } from 'kysely';
import type pg from 'pg';
import type { Config } from '../config/config.js';
import { asynchronousCommitDialect } from './asynchronous-commit.js';
import { describeDatabaseRefusal } from './database-refusal.js';
import type { Engine } from './engine.js';
import { migrateToLatest } from './migrations/migrator.js';
import type { DatabaseSchema } from './schema.js';

export type { Engine } from './engine.js';

export interface Database {
  engine: Engine;
  db: Kysely<DatabaseSchema>;
  /**
   * The same database, for rows a database crash may lose without harm because the flow already
   * handles their absence (docs/decisions.md, "Authentication states commit asynchronously"). On
   * PostgreSQL its writes commit with synchronous_commit = off, set per transaction on the shared pool
   * (asynchronous-commit.ts): a commit returns without waiting for the WAL flush, which the WAL
   * writer does shortly after (wal_writer_delay), and a later synchronous commit flushes it first,
   * so nothing written here can be lost while something committed after it survives.
   * On SQLite it is `db`.
   */
  ephemeral: Kysely<DatabaseSchema>;
  /**
   * Only for PostgreSQL: where a connection that must keep its session (LISTEN) connects to:
   * DATABASE_DIRECT_URL, else DATABASE_URL.
   */
  url?: string;
  /** Only for PostgreSQL: the one pool behind `db` and `ephemeral`, for NOTIFY, advisory locks and metrics. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

const requireDriver = createRequire(import.meta.url);
/**
 * The PostgreSQL driver, loaded when PostgreSQL is configured: an instance on SQLite never pays for
 * it at start-up (pg is CommonJS, so a synchronous require keeps openDatabase synchronous).
 */
export const loadPg = (): typeof pg => requireDriver('pg') as typeof pg;

/**
 * The SQLite driver, loaded when SQLite is configured. better-sqlite3 is an optional dependency of
 * @ferry/server: a default install has it (`npm start` and `npx ferry-server` run on SQLite with no
 * configuration), and a PostgreSQL deployment may leave it out (`npm install --omit=optional`).
 * Missing, start-up stops with what to do instead of a module-resolution stack.
 */
export function loadSqlite(): typeof Sqlite {
  try {
    return requireDriver('better-sqlite3') as typeof Sqlite;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'MODULE_NOT_FOUND' || !String((error as Error).message).includes("'better-sqlite3'")) throw error;
    throw new Error(
      'SQLite is configured (DATABASE_URL is unset), but better-sqlite3, the optional dependency @ferry/server ' +
        'runs SQLite with, is not installed (an install with --omit=optional leaves it out). ' +
        'Set DATABASE_URL to a PostgreSQL database, or install it: npm install better-sqlite3@^13',
    );
  }
}

// BIGINT (epoch ms) and COUNT come back as strings by default; every value we store fits a double.
const pgTypes = (driver: typeof pg) => ({
  getTypeParser(oid: number, format?: string) {
    if (oid === 20) return (value: string) => Number(value);
    return driver.types.getTypeParser(oid, format as 'text');
  },
});

/** How long a request waits for a PostgreSQL connection to open before it answers 503. */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * PostgreSQL connections of the pool when DATABASE_POOL_SIZE is unset. An instance opens at most
 * this many plus one (the LISTEN connection): 6. Sized so that the Helm chart's most pods at once,
 * maxReplicas 10 plus a rolling update's 25 % surge, fit PostgreSQL's default max_connections of
 * 100 with room for everything else: 13 × 6 = 78 (docs/deployment.md, "Database connections").
 */
export const DEFAULT_POOL_SIZE = 5;

/** Connections the pool keeps open while idle: one, so a quiet instance answers its next query without a connect. */
const MIN_IDLE_CONNECTIONS = 1;

/** An idle connection above the minimum closes after this long: a burst's connections serve the bursts that follow it. */
const IDLE_TIMEOUT_MS = 60_000;

/**
 * better-sqlite3 compiles a statement on every prepare(), and Kysely's SQLite driver prepares each
 * query it runs; the application issues a few dozen distinct SQL texts, so each is compiled once
 * and reused. Statements are per connection and this is the only connection, so sharing is safe.
 */
function withStatementCache(sqlite: Sqlite.Database): SqliteDatabase {
  const statements = new Map<string, Sqlite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        // Bounded: ad-hoc SQL (migrations, tools) must not grow the cache without end.
        if (statements.size >= 500) statements.clear();
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

export function openDatabase(target: Config['database']): Database {
  if (target.engine === 'postgres') {
    const driver = loadPg();
    // One pool per instance, connections opened on demand up to DATABASE_POOL_SIZE, one kept while
    // idle. Every PostgreSQL connection counts against the server's max_connections across all
    // instances, so an instance holds only what its traffic needs.
    // A database that does not answer (a partition, not a refusal) fails requests with 503 after
    // CONNECT_TIMEOUT_MS instead of holding them for the operating system's TCP timeout.
    const pool = new driver.Pool({
      connectionString: target.url,
      max: poolSizeOf(target),
      min: MIN_IDLE_CONNECTIONS,
      idleTimeoutMillis: IDLE_TIMEOUT_MS,
      types: pgTypes(driver),
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // A client that loses its connection must not crash the process: an idle one reports it on the
    // pool, a checked-out one (inside a transaction, between its queries) on itself. The query
    // that needed it fails with the connection error (503), and the pool discards the client.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
    const ephemeral = new Kysely<DatabaseSchema>({ dialect: asynchronousCommitDialect(pool) });
    return {
      engine: 'postgres',
      db,
      ephemeral,
      url: target.directUrl ?? target.url,
      pool,
      close: async () => {
        await Promise.all([ephemeral.destroy(), db.destroy()]);
      },
    };
  }
  const Driver = loadSqlite();
  if (target.file !== ':memory:') fs.mkdirSync(path.dirname(target.file), { recursive: true });
  const sqlite = new Driver(target.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { engine: 'sqlite', db, ephemeral: db, close: () => db.destroy() };
}

/** DATABASE_POOL_SIZE, or its default. */
export const poolSizeOf = (target: Extract<Config['database'], { engine: 'postgres' }>): number =>
  target.poolSize ?? DEFAULT_POOL_SIZE;

/**
 * Applies pending migrations on a connection of their own to DATABASE_DIRECT_URL (else
 * DATABASE_URL), closed afterwards: Kysely's migrator holds a session-level advisory lock, which
 * needs a connection that keeps its session, and through a transaction-mode pooler the pool's would not.
 */
async function migratePostgres(
  target: Extract<Config['database'], { engine: 'postgres' }>,
  options: OpenMigratedOptions,
): Promise<void> {
  const url = target.directUrl ?? target.url;
  const pool = new (loadPg().Pool)({ connectionString: url, max: 1, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  pool.on('error', () => {});
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  try {
    const { newer } = await migrateToLatest(db, 'postgres').catch((error: unknown) => {
      throw refusalOr(error, target, target.directUrl ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL');
    });
    if (newer.length > 0) options.onNewerMigrations?.(newer);
  } finally {
    await db.destroy();
  }
}

export interface OpenMigratedOptions {
  /** The database holds migrations of a newer Ferry (a rolling upgrade, a rollback): told, not refused. */
  onNewerMigrations?: (names: string[]) => void;
}

/** The operator's sentence for a refused connection (database-refusal.ts), or the error as it was. */
function refusalOr(
  error: unknown,
  target: Extract<Config['database'], { engine: 'postgres' }>,
  variable: 'DATABASE_URL' | 'DATABASE_DIRECT_URL',
): unknown {
  const url = variable === 'DATABASE_DIRECT_URL' ? (target.directUrl ?? target.url) : target.url;
  const cause = error instanceof Error && /^Database migration .* failed: /.test(error.message) ? error.cause : error;
  const message = describeDatabaseRefusal(cause ?? error, {
    variable,
    url,
    poolSize: poolSizeOf(target),
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
  });
  return message ? new DatabaseRefused(message, { cause: error }) : error;
}

/** PostgreSQL refused or did not answer at start-up; the message says why and what to do. */
export class DatabaseRefused extends Error {
  override name = 'DatabaseRefused';
}

/**
 * Opens the database and applies every pending migration; for PostgreSQL, also checks that the
 * pool connects (DATABASE_URL may be a pooler, migrations go direct) and keeps that connection.
 * A refused connection fails with DatabaseRefused, whose message names the cause and the fix.
 */
export async function openMigratedDatabase(
  target: Config['database'],
  options: OpenMigratedOptions = {},
): Promise<Database> {
  if (target.engine === 'postgres') await migratePostgres(target, options);
  const database = openDatabase(target);
  try {
    if (target.engine === 'postgres') {
      await sql`select 1`.execute(database.db).catch((error: unknown) => {
        throw refusalOr(error, target, 'DATABASE_URL');
      });
    } else {
      const { newer } = await migrateToLatest(database.db, database.engine);
      if (newer.length > 0) options.onNewerMigrations?.(newer);
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
