import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * Release groups: the releases one publish made of both platforms from one export share a
 * `group_id`, so release control can act on them together (docs/ota.md, "Release groups").
 *
 * Nullable: releases stored before this migration belong to no group, and a previous version that
 * runs on this schema during a rolling upgrade inserts without one. `releases_group_platform`
 * finds a group's releases and holds the rule that a group has at most one release per platform
 * (both engines count NULLs as distinct, so releases without a group are not constrained).
 */
export const releaseGroupsMigration: EngineMigration = () => ({
  async up(db) {
    await sql`alter table releases add column group_id text`.execute(db);
    await sql`create unique index releases_group_platform on releases (group_id, platform)`.execute(db);
  },
  async down(db) {
    await sql`drop index releases_group_platform`.execute(db);
    await sql`alter table releases drop column group_id`.execute(db);
  },
});
