import { type Kysely, sql } from 'kysely';
import type { DatabaseSchema } from '../../src/storage/schema.js';

/**
 * Row counts of the given tables, keyed by table name. Tests take them before and after a failed
 * request to prove it left the data exactly as it was.
 */
export async function rowCounts<T extends keyof DatabaseSchema & string>(
  db: Kysely<DatabaseSchema>,
  tables: readonly T[],
): Promise<Record<T, number>> {
  const counts = await Promise.all(
    tables.map(async (table) => {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
      return [table, Number(rows[0]?.n)] as const;
    }),
  );
  return Object.fromEntries(counts) as Record<T, number>;
}
