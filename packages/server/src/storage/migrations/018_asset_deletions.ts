import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * Asset garbage collection that a publish cannot race (issue 34).
 *
 * `asset_deletions`: one row per update-asset key a collection decided to delete. `pending` is 1
 * from the moment the collection commits to deleting the key until its deletion is over; `version`
 * is raised each time a row is written (max + 1 under the collection lock), so a publisher that read
 * the highest version before it looked at object storage can tell whether a deletion began or
 * ended since.
 *
 * `gc_claims`: the running collection, one at a time across every instance. A claim lapses at
 * `expires_at` (a collection renews it while it runs), so one stopped by a crash is taken over;
 * `holder` (host and process id) lets a process on the same host take over at once from one that
 * is gone.
 */
export const assetDeletionsMigration: EngineMigration = () => ({
  async up(db) {
    await sql`
      create table asset_deletions (
        key text primary key,
        version bigint not null,
        pending integer not null,
        run_id text not null,
        updated_at bigint not null
      )`.execute(db);
    await sql`create index asset_deletions_version on asset_deletions (version)`.execute(db);
    await sql`
      create table gc_claims (
        name text primary key,
        run_id text not null,
        holder text not null,
        expires_at bigint not null
      )`.execute(db);
  },
  async down(db) {
    await sql`drop table gc_claims`.execute(db);
    await sql`drop table asset_deletions`.execute(db);
  },
});
