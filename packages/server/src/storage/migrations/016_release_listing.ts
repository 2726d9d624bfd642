import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * Listings across tracks (issue 18).
 *
 * `releases_newest`: GET /api/updates/releases without a whole track reads releases newest first
 * (created_at desc, seq desc) and pages on that order; a whole track keeps using releases_track_newest.
 * `releases_runtime_newest`: the same narrowed to a runtimeVersion, which most often names one build
 * on one platform. (The audit export reads by seq, the primary key, and needs no index of its own.)
 */
export const releaseListingMigration: EngineMigration = () => ({
  async up(db) {
    await sql`create index releases_newest on releases (created_at desc, seq desc)`.execute(db);
    await sql`
      create index releases_runtime_newest
        on releases (runtime_version, created_at desc, seq desc)`.execute(db);
  },
  async down(db) {
    await sql`drop index releases_runtime_newest`.execute(db);
    await sql`drop index releases_newest`.execute(db);
  },
});
