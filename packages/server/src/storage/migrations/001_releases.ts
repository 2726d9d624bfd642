import { sql } from 'kysely';
import { type EngineMigration, engineColumns } from './engine-migration.js';

/**
 * One row per OTA release. update_policy, channel and platform are CHECKed here as well as in the
 * API, so a direct insert cannot store a value the clients do not understand. The index makes
 * "newest release of a track" a single seek whatever the history size.
 */
export const releasesMigration: EngineMigration = (engine) => ({
  async up(db) {
    const { json, seqPrimaryKey: seq } = engineColumns(engine);
    await sql`
      create table releases (
        ${seq},
        id text not null unique,
        channel text not null check (channel in ('development', 'production')),
        platform text not null check (platform in ('ios', 'android')),
        runtime_version text not null check (length(runtime_version) between 1 and 255),
        launch_asset ${json} not null,
        assets ${json} not null,
        ota_config ${json},
        update_policy integer check (update_policy between 1 and 3),
        metadata ${json} not null,
        created_at bigint not null
      )`.execute(db);
    await sql`
      create index releases_track_newest
        on releases (channel, platform, runtime_version, created_at desc, seq desc)`.execute(db);
  },
  async down(db) {
    await sql`drop table releases`.execute(db);
  },
});
