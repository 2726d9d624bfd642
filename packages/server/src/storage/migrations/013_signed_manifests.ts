import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * A release's manifest as signed at publish, one row per header namespace, so no instance signs
 * while a device waits. `certificate` names the signing certificate (its SHA-256): after a key
 * rotation the rows no longer match and are signed again once.
 */
export const signedManifestsMigration: EngineMigration = () => ({
  async up(db) {
    await sql`
      create table signed_manifests (
        release_id text not null references releases (id),
        namespace text not null check (namespace in ('ota', 'expo')),
        certificate text not null,
        body text not null,
        signature text not null,
        primary key (release_id, namespace)
      )`.execute(db);
  },
  async down(db) {
    await sql`drop table signed_manifests`.execute(db);
  },
});
