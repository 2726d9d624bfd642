import { DEFAULT_MIGRATION_TABLE, type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Engine } from '../engine.js';
import { releasesMigration } from './001_releases.js';
import { auditEventsMigration } from './002_audit_events.js';
import { assignmentsMigration } from './010_assignments.js';
import { certificateAuthenticationStatesMigration } from './011_certificate_authentication_states.js';
import { certificateIssuancesMigration } from './012_certificate_issuances.js';
import { signedManifestsMigration } from './013_signed_manifests.js';
import { rolloutsAndDirectivesMigration } from './014_rollouts_and_directives.js';
import { updateReportsMigration } from './015_update_reports.js';
import { releaseListingMigration } from './016_release_listing.js';
import { operatorTokensMigration } from './017_operator_tokens.js';
import { assetDeletionsMigration } from './018_asset_deletions.js';
import { assetIdentityMigration } from './019_asset_identity.js';
import { bundlePatchesMigration } from './020_bundle_patches.js';
import { dropEnumerationChecksMigration } from './021_drop_enumeration_checks.js';
import { releaseGroupsMigration } from './022_release_groups.js';
import { auditPagingMigration } from './023_audit_paging.js';
import { appsMigration } from './024_apps.js';
import type { EngineMigration } from './engine-migration.js';

/**
 * Versioned, append-only. Never edit a migration that has shipped; add the next number.
 * Later features append their own entries here.
 */
export const MIGRATIONS: Record<string, EngineMigration> = {
  '001_releases': releasesMigration,
  '002_audit_events': auditEventsMigration,
  '010_assignments': assignmentsMigration,
  '011_certificate_authentication_states': certificateAuthenticationStatesMigration,
  '012_certificate_issuances': certificateIssuancesMigration,
  '013_signed_manifests': signedManifestsMigration,
  '014_rollouts_and_directives': rolloutsAndDirectivesMigration,
  '015_update_reports': updateReportsMigration,
  '016_release_listing': releaseListingMigration,
  '017_operator_tokens': operatorTokensMigration,
  '018_asset_deletions': assetDeletionsMigration,
  '019_asset_identity': assetIdentityMigration,
  '020_bundle_patches': bundlePatchesMigration,
  '021_drop_enumeration_checks': dropEnumerationChecksMigration,
  '022_release_groups': releaseGroupsMigration,
  '023_audit_paging': auditPagingMigration,
  '024_apps': appsMigration,
};

/**
 * What the database records as applied that this version does not know: a newer Ferry applied
 * them (a rolling upgrade under way, or a rollback). Empty on a database never migrated.
 */
// biome-ignore lint/suspicious/noExplicitAny: read before the schema is known.
async function appliedByNewerVersion(db: Kysely<any>): Promise<string[]> {
  let applied: string[];
  try {
    const rows = await db.selectFrom(DEFAULT_MIGRATION_TABLE).select('name').execute();
    applied = rows.map((row) => String(row.name));
  } catch {
    // No migration table yet: nothing was applied. (An unreachable database fails the migrator next.)
    return [];
  }
  return applied.filter((name) => !Object.hasOwn(MIGRATIONS, name)).sort();
}

/**
 * Stands for a migration a newer version applied: already applied, so never run. Migrations are
 * expand-only (docs/deployment.md, "Rolling upgrades and migrations"), so this version keeps working
 * on the schema they left.
 */
const appliedElsewhere: Migration = {
  up: async () => {
    throw new Error('a migration of a newer Ferry version cannot be applied by this one');
  },
};

class EngineMigrationProvider implements MigrationProvider {
  constructor(
    private readonly engine: Engine,
    private readonly newer: string[],
  ) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return {
      ...Object.fromEntries(Object.entries(MIGRATIONS).map(([name, make]) => [name, make(this.engine)])),
      ...Object.fromEntries(this.newer.map((name) => [name, appliedElsewhere])),
    };
  }
}

export interface MigrationOutcome {
  /** Migrations in the database that a newer Ferry applied; this version runs on their schema. */
  newer: string[];
}

// Kysely's Migrator takes a lock (an advisory lock on PostgreSQL), so several instances starting
// together apply each migration exactly once. Kysely refuses a database holding migrations it is
// not given ("corrupted migrations"), which would stop the previous version from starting during a
// rolling upgrade or after a rollback: those are given to it as already applied.
// biome-ignore lint/suspicious/noExplicitAny: migrations run before the schema they create exists.
export async function migrateToLatest(db: Kysely<any>, engine: Engine): Promise<MigrationOutcome> {
  // Read before the migrator's lock (which holds SQLite's only connection); a newer version that
  // migrates in between is found on the second try.
  for (let attempt = 1; ; attempt++) {
    const newer = await appliedByNewerVersion(db);
    const migrator = new Migrator({ db, provider: new EngineMigrationProvider(engine, newer) });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return { newer };
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown error');
    if (attempt === 1 && !failed && cause.includes('previously executed migration')) continue;
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`, { cause: error });
  }
}
