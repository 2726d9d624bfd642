import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * Asset URLs built when a manifest is made (issue 35).
 *
 * Releases stored the URL each asset was uploaded to, built from the publishing instance's
 * PUBLIC_URL (or ASSET_PUBLIC_BASE_URL) at that time, and manifests sent devices there: to that
 * instance even once it had stopped, and never to a CDN configured later. A release's asset is
 * identified by its hash (the object key follows from the release's channel and runtimeVersion),
 * which every release row already holds, so nothing is rewritten: manifests now build the URLs
 * from the current configuration, and the stored `url` is what a server older than this one still
 * reads while a rolling upgrade runs (migrations only add: docs/deployment.md).
 *
 * `signed_manifests.asset_base_url`: the base the signed manifest's URLs were built with. A
 * signature made under another base (or before this migration, null) is made again, once.
 */
export const assetIdentityMigration: EngineMigration = () => ({
  async up(db) {
    await sql`alter table signed_manifests add column asset_base_url text`.execute(db);
  },
  async down(db) {
    await sql`alter table signed_manifests drop column asset_base_url`.execute(db);
  },
});
