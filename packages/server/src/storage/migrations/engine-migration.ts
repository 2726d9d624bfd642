import { type Migration, sql } from 'kysely';
import type { Engine } from '../engine.js';

/** An engine-aware migration: each file holds the DDL for both engines side by side. */
export type EngineMigration = (engine: Engine) => Migration;

/** The two column types whose spelling differs between the engines. */
export const engineColumns = (engine: Engine) => ({
  json: sql.raw(engine === 'postgres' ? 'jsonb' : 'text'),
  /** A monotonic insertion sequence, the tie-breaker of equal timestamps. */
  seqPrimaryKey: sql.raw(
    engine === 'postgres'
      ? 'seq bigint generated always as identity primary key'
      : 'seq integer primary key autoincrement',
  ),
});
