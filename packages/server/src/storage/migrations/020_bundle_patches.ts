import { sql } from 'kysely';
import type { EngineMigration } from './engine-migration.js';

/**
 * Bundle patches (issue 36).
 *
 * `embedded_bundles`: the update a native build embeds, registered with its launch bundle
 * (`ferry embedded upload`), so releases on its platform and runtime version get a patch from it.
 * Devices running it send its id as their current update.
 *
 * `bundle_patches`: one BSDIFF40 patch from a base launch bundle to a target one, by their hashes
 * (content-addressed: the same pair is made once, whatever tracks share it). A publish queues its
 * rows in the release's own transaction, so queued work outlives any crash; one instance at a time
 * makes a row (`holder` until `lease_until`, renewed while it works; a holder process found gone on
 * the same host is taken over at once). `base_key` and `target_key` name the objects to read;
 * `base_kind` and `base_update_id` the first update that asked for the base, for display.
 */
export const bundlePatchesMigration: EngineMigration = () => ({
  async up(db) {
    await sql`
      create table embedded_bundles (
        update_id text primary key,
        platform text not null,
        runtime_version text not null,
        hash text not null,
        size bigint not null,
        object_key text not null,
        registered_at bigint not null
      )`.execute(db);
    await sql`create index embedded_bundles_runtime on embedded_bundles (platform, runtime_version, registered_at)`.execute(
      db,
    );
    await sql`
      create table bundle_patches (
        base_hash text not null,
        target_hash text not null,
        base_key text not null,
        target_key text not null,
        base_kind text not null,
        base_update_id text not null,
        state text not null,
        patch_key text,
        size bigint,
        full_size bigint,
        holder text,
        lease_until bigint,
        attempts integer not null,
        created_at bigint not null,
        updated_at bigint not null,
        primary key (base_hash, target_hash)
      )`.execute(db);
    await sql`create index bundle_patches_state on bundle_patches (state, created_at)`.execute(db);
    await sql`create index bundle_patches_target on bundle_patches (target_hash)`.execute(db);
  },
  async down(db) {
    await sql`drop table bundle_patches`.execute(db);
    await sql`drop table embedded_bundles`.execute(db);
  },
});
