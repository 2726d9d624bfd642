import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * Many apps on one Ferry (docs/apps.md).
 *
 * `apps`: one row per app. The default app (slug `default`) is made here from what the server held
 * before: every release, directive, embedded bundle and audit event becomes its own, and it signs
 * with the key of the configuration (OTA_SIGNING_KEY…), so `signing_key` and `certificate` are null
 * for it. Any other app holds its key envelope-sealed (apps/app-key-vault.ts): never in plain text.
 *
 * `app_release_tokens`: the release tokens of apps other than the default one (whose release token
 * stays OTA_RELEASE_TOKEN); only a token's SHA-256 is kept.
 *
 * `app_id` on the tables whose rows belong to one app, with the default app's slug as the default:
 * a previous version that runs on this schema during a rolling upgrade inserts without it, and
 * everything it writes is the default app's, as it was. Rows reached through a release or a
 * directive (rollouts, signed manifests, device reports) belong to that release's app.
 *
 * Operator tokens: `app_id` names the one app a token is granted its role in; null is every app.
 * Admin tokens stay server-wide; the others were the default app's (the only app there was).
 * Console sessions carry their grants (JSON); sessions from before end here (sign in again).
 */
export const appsMigration: EngineMigration = () => ({
  async up(db) {
    await sql`
      create table apps (
        slug text primary key,
        name text not null,
        created_at bigint not null,
        archived_at bigint,
        key_id text not null,
        certificate text,
        signing_key text
      )`.execute(db);
    await sql`
      insert into apps (slug, name, created_at, archived_at, key_id, certificate, signing_key)
      values ('default', 'Default app', ${Date.now()}, null, '', null, null)`.execute(db);
    await sql`
      create table app_release_tokens (
        id text primary key,
        app_id text not null references apps (slug),
        name text not null,
        token_hash text not null unique,
        created_at bigint not null,
        created_by text not null,
        revoked_at bigint
      )`.execute(db);
    await sql`create index app_release_tokens_app on app_release_tokens (app_id)`.execute(db);
    for (const table of ['releases', 'directives', 'embedded_bundles', 'audit_events']) {
      await sql`alter table ${sql.table(table)} add column app_id text not null default 'default'`.execute(db);
    }
    await sql`
      create index releases_app_track_newest
        on releases (app_id, channel, platform, runtime_version, created_at desc, seq desc)`.execute(db);
    await sql`
      create index directives_app_track_newest
        on directives (app_id, channel, platform, runtime_version, created_at desc, seq desc)`.execute(db);
    await sql`create index releases_app_newest on releases (app_id, created_at desc, seq desc)`.execute(db);
    await sql`create index audit_events_app_newest on audit_events (app_id, created_at desc, seq desc)`.execute(db);
    await sql`create index embedded_bundles_app on embedded_bundles (app_id, platform, runtime_version)`.execute(db);
    await sql`alter table operator_tokens add column app_id text`.execute(db);
    await sql`update operator_tokens set app_id = 'default' where role <> 'admin'`.execute(db);
    await sql`alter table operator_sessions add column grants text`.execute(db);
    await sql`delete from operator_sessions`.execute(db);
  },
  async down(db) {
    await sql`drop index embedded_bundles_app`.execute(db);
    await sql`drop index audit_events_app_newest`.execute(db);
    await sql`drop index releases_app_newest`.execute(db);
    await sql`drop index directives_app_track_newest`.execute(db);
    await sql`drop index releases_app_track_newest`.execute(db);
    await sql`drop table app_release_tokens`.execute(db);
    await sql`drop table apps`.execute(db);
  },
});
