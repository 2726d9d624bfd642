import { sql } from 'kysely';
import { type EngineMigration, engineColumns } from './engine-migration.js';

/** Who did what to which track, and with which fingerprints: every release and every guard bypass. */
export const auditEventsMigration: EngineMigration = (engine) => ({
  async up(db) {
    const { json, seqPrimaryKey: seq } = engineColumns(engine);
    await sql`
      create table audit_events (
        ${seq},
        id text not null unique,
        type text not null,
        actor text not null,
        channel text,
        platform text,
        runtime_version text,
        release_id text,
        details ${json} not null,
        created_at bigint not null
      )`.execute(db);
    await sql`create index audit_events_track on audit_events (channel, platform, runtime_version, seq)`.execute(db);
  },
  async down(db) {
    await sql`drop table audit_events`.execute(db);
  },
});
