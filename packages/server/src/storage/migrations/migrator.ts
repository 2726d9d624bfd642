import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
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
};

class EngineMigrationProvider implements MigrationProvider {
  constructor(private readonly engine: Engine) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(Object.entries(MIGRATIONS).map(([name, make]) => [name, make(this.engine)]));
  }
}

// Kysely's Migrator takes a lock (an advisory lock on PostgreSQL), so several instances starting
// together apply each migration exactly once.
// biome-ignore lint/suspicious/noExplicitAny: migrations run before the schema they create exists.
export async function migrateToLatest(db: Kysely<any>, engine: Engine): Promise<void> {
  const migrator = new Migrator({ db, provider: new EngineMigrationProvider(engine) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`, { cause: error });
  }
}
