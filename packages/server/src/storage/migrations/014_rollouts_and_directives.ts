import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * Release control (issue 18).
 *
 * `rollouts`: a release published to a share of devices. A release without a row reached every
 * device at once. `state` is running, complete, reverted, halted or superseded (a later entry on
 * the track took its place while it was running); the halt rule is a failure rate (0–1) and the
 * devices it needs before it may fire.
 *
 * `directives`: entries of a track's timeline that are not releases (rollBackToEmbedded). They are
 * ordered with the releases by created_at, and carry their own signed bodies per namespace, since
 * signed_manifests belongs to releases.
 */
export const rolloutsAndDirectivesMigration: EngineMigration = (engine) => ({
  async up(db) {
    const seq =
      engine === 'postgres'
        ? sql.raw('seq bigint generated always as identity primary key')
        : sql.raw('seq integer primary key autoincrement');
    const real = sql.raw(engine === 'postgres' ? 'double precision' : 'real');
    await sql`
      create table rollouts (
        release_id text primary key references releases (id),
        percent integer not null check (percent between 0 and 100),
        state text not null check (state in ('running', 'complete', 'reverted', 'halted', 'superseded')),
        halt_failure_rate ${real} check (halt_failure_rate > 0 and halt_failure_rate <= 1),
        halt_min_devices integer check (halt_min_devices >= 1),
        reason text,
        updated_at bigint not null
      )`.execute(db);
    await sql`
      create table directives (
        ${seq},
        id text not null unique,
        channel text not null check (channel in ('development', 'production')),
        platform text not null check (platform in ('ios', 'android')),
        runtime_version text not null,
        type text not null check (type in ('rollBackToEmbedded')),
        actor text not null,
        signed text not null,
        created_at bigint not null
      )`.execute(db);
    await sql`
      create index directives_track_newest
        on directives (channel, platform, runtime_version, created_at desc, seq desc)`.execute(db);
  },
  async down(db) {
    await sql`drop table directives`.execute(db);
    await sql`drop table rollouts`.execute(db);
  },
});
