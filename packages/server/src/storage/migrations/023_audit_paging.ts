import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * The audit log newest first, a page at a time (GET /api/audit-events?order=newest): keyset pages
 * on (created_at, seq), unfiltered or filtered by actor, type or track, each read off an index in
 * that order instead of sorting every matching event. (The export, oldest first, reads by seq.)
 */
export const auditPagingMigration: EngineMigration = () => ({
  async up(db) {
    await sql`create index audit_events_newest on audit_events (created_at desc, seq desc)`.execute(db);
    await sql`create index audit_events_actor_newest on audit_events (actor, created_at desc, seq desc)`.execute(db);
    await sql`create index audit_events_type_newest on audit_events (type, created_at desc, seq desc)`.execute(db);
    await sql`
      create index audit_events_track_newest
        on audit_events (channel, platform, runtime_version, created_at desc, seq desc)`.execute(db);
  },
  async down(db) {
    await sql`drop index audit_events_track_newest`.execute(db);
    await sql`drop index audit_events_type_newest`.execute(db);
    await sql`drop index audit_events_actor_newest`.execute(db);
    await sql`drop index audit_events_newest`.execute(db);
  },
});
