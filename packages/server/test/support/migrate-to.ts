import { type Migration, Migrator } from 'kysely';
import { openDatabase } from '../../src/storage/database.js';
import { MIGRATIONS } from '../../src/storage/migrations/migrator.js';
import type { EngineName, TestDatabase } from './engines.js';

/**
 * Applies the migrations up to `last`, or all of them, to a test database: an upgrade test starts
 * from a database made by the migrations before the one it tests.
 */
export async function migrateTestDatabase(database: TestDatabase, engine: EngineName, last?: string): Promise<void> {
  const opened = openDatabase(database.target);
  try {
    const migrator = new Migrator({
      db: opened.db,
      provider: {
        getMigrations: async () =>
          Object.fromEntries(
            Object.entries(MIGRATIONS).map(([name, make]): [string, Migration] => [name, make(engine)]),
          ),
      },
    });
    const { error } = last ? await migrator.migrateTo(last) : await migrator.migrateToLatest();
    if (error) throw error;
  } finally {
    await opened.close();
  }
}
