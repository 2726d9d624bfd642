import {
  type DatabaseConnection,
  type Driver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { Database } from '../../src/storage/database.js';
import type { DatabaseSchema } from '../../src/storage/schema.js';

/**
 * Takes a running server's SQLite database away (an embedded database has no server to stop): every
 * query fails as the driver of a database that cannot be reached does (ECONNREFUSED), until the
 * returned function gives it back. Queries already running finish on the real database.
 */
export function takeDatabaseAway(database: Database): () => void {
  const { db, ephemeral } = database;
  const refused = (): Error =>
    Object.assign(new Error('connect ECONNREFUSED (the test took the database away)'), { code: 'ECONNREFUSED' });
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async (): Promise<DatabaseConnection> => {
      throw refused();
    },
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const unreachable = new Kysely<DatabaseSchema>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => driver,
      createIntrospector: (kysely) => new SqliteIntrospector(kysely),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
  database.db = unreachable;
  database.ephemeral = unreachable;
  return () => {
    database.db = db;
    database.ephemeral = ephemeral;
  };
}
