import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Sqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect } from 'kysely';
import type pg from 'pg';
import type { Config } from '../config/config.js';
import type { Engine } from './engine.js';
import { migrateToLatest } from './migrations/migrator.js';
import type { DatabaseSchema } from './schema.js';

export type { Engine } from './engine.js';

export interface Database {
  engine: Engine;
  db: Kysely<DatabaseSchema>;
  /**
   * The same database, for rows a database crash may lose without harm because the flow already
   * handles their absence (see docs/decisions.md, "Asynchronous commit"). On PostgreSQL its
   * connections run with synchronous_commit = off: a commit returns without waiting for the WAL
   * flush, which the WAL writer does shortly after (wal_writer_delay), and a later synchronous commit flushes it
   * first, so nothing written here can be lost while something committed after it survives.
   * On SQLite it is `db`.
   */
  ephemeral: Kysely<DatabaseSchema>;
  /** Only for PostgreSQL: where a dedicated connection (LISTEN) connects to. */
  url?: string;
  /** Only for PostgreSQL: the pool, for LISTEN/NOTIFY and advisory locks. */
  pool?: pg.Pool;
  /** Only for PostgreSQL: the pool behind `ephemeral` (its counters are exported as metrics). */
  ephemeralPool?: pg.Pool;
  /** Opens every pooled connection (PostgreSQL), so the first burst of requests does not wait for them. */
  warm?: () => Promise<void>;
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
const CONNECT_TIMEOUT_MS = 10_000;

/** PostgreSQL connections per pool when DATABASE_POOL_SIZE is unset. */
export const DEFAULT_POOL_SIZE = 10;

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
    const size = target.poolSize ?? DEFAULT_POOL_SIZE;
    const driver = loadPg();
    const types = pgTypes(driver);
    // A fixed-size pool (min = max, as HikariCP recommends): pg-pool otherwise closes connections
    // idle for 10 s and opens them again when traffic returns, and opening one (a backend fork,
    // authentication, a cold catalog cache) costs tens of milliseconds that land on the requests
    // queued behind it, exactly when a burst arrives. openMigratedDatabase opens them all at start.
    // Two pools of that size: one as configured, one for `ephemeral` writes.
    // A database that does not answer (a partition, not a refusal) fails requests with 503 after
    // CONNECT_TIMEOUT_MS instead of holding them for the operating system's TCP timeout.
    const pool = new driver.Pool({
      connectionString: target.url,
      max: size,
      min: size,
      types,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    const ephemeralPool = new driver.Pool({
      connectionString: target.url,
      max: size,
      min: size,
      types,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // Set at connection start-up, so it costs no round trip.
      options: '-c synchronous_commit=off',
    });
    // A client that loses its connection must not crash the process: an idle one reports it on the
    // pool, a checked-out one (inside a transaction, between its queries) on itself. The query
    // that needed it fails with the connection error (503), and the pool discards the client.
    for (const each of [pool, ephemeralPool]) {
      each.on('error', () => {});
      each.on('connect', (client) => client.on('error', () => {}));
    }
    const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
    const ephemeral = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool: ephemeralPool }) });
    return {
      engine: 'postgres',
      db,
      ephemeral,
      url: target.url,
      pool,
      ephemeralPool,
      warm: () => Promise.all([warmPool(pool), warmPool(ephemeralPool)]).then(() => {}),
      close: async () => {
        await Promise.all([db.destroy(), ephemeral.destroy()]);
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

/** Opens every connection the pool may hold, so the first burst of requests does not wait for them. */
async function warmPool(pool: pg.Pool): Promise<void> {
  const clients = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
  for (const client of clients) client.release();
}

export interface OpenMigratedOptions {
  /** The database holds migrations of a newer Ferry (a rolling upgrade, a rollback): told, not refused. */
  onNewerMigrations?: (names: string[]) => void;
}

/** Opens the database, applies every pending migration and, for PostgreSQL, opens the pool's connections. */
export async function openMigratedDatabase(
  target: Config['database'],
  options: OpenMigratedOptions = {},
): Promise<Database> {
  const database = openDatabase(target);
  try {
    const { newer } = await migrateToLatest(database.db, database.engine);
    if (newer.length > 0) options.onNewerMigrations?.(newer);
    await database.warm?.();
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
