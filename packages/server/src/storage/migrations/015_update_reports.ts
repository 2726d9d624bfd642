import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * What devices report on their update checks (issue 18), one row per update and device: the
 * device is the SHA-256 of its EAS-Client-ID, never the id itself.
 *
 * `update_checks`: the device ran the update (expo-current-update-id) when it last checked; adoption
 * counts rows seen within a window. `update_failures`: the device reported the update as failed
 * (Expo-Recent-Failed-Update-IDs) or crashed on it (Expo-Fatal-Error); the first report counts.
 */
export const updateReportsMigration: EngineMigration = () => ({
  async up(db) {
    await sql`
      create table update_checks (
        update_id text not null,
        device text not null,
        first_seen bigint not null,
        last_seen bigint not null,
        primary key (update_id, device)
      )`.execute(db);
    await sql`create index update_checks_recent on update_checks (update_id, last_seen)`.execute(db);
    await sql`
      create table update_failures (
        update_id text not null,
        device text not null,
        kind text not null check (kind in ('failed', 'fatal')),
        first_seen bigint not null,
        primary key (update_id, device)
      )`.execute(db);
  },
  async down(db) {
    await sql`drop table update_failures`.execute(db);
    await sql`drop table update_checks`.execute(db);
  },
});
