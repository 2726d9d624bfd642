import type { OperatorRole } from '@ferry/contracts';
import type { Generated } from 'kysely';

/**
 * Table shapes as Kysely sees them. JSON columns are jsonb in PostgreSQL and text in SQLite; the
 * stores read both through `parseJson`. Timestamps are epoch milliseconds (BIGINT) in both engines
 * so ordering and tie-breaking behave the same everywhere.
 */
export interface ReleasesTable {
  seq: Generated<number>;
  id: string;
  channel: string;
  platform: string;
  runtime_version: string;
  launch_asset: unknown;
  assets: unknown;
  ota_config: unknown | null;
  update_policy: number | null;
  metadata: unknown;
  created_at: number;
  /** The release group (migration 022): the releases one publish made of both platforms; null before. */
  group_id: string | null;
  /** The app it belongs to (migration 024). */
  app_id: Generated<string>;
}

export interface AuditEventsTable {
  seq: Generated<number>;
  id: string;
  type: string;
  actor: string;
  channel: string | null;
  platform: string | null;
  runtime_version: string | null;
  release_id: string | null;
  details: unknown;
  created_at: number;
  /** The app it belongs to (migration 024). */
  app_id: Generated<string>;
}

/** Operator tokens (migration 017): only the token's SHA-256 is kept. */
export interface OperatorTokensTable {
  id: string;
  name: string;
  role: OperatorRole;
  token_hash: string;
  created_at: number;
  created_by: string;
  revoked_at: number | null;
  last_used_at: number | null;
  /** The one app the role is granted in (migration 024); null: every app. */
  app_id: string | null;
}

/** Console sessions (migration 017): only the session id's SHA-256 is kept. */
export interface OperatorSessionsTable {
  id_hash: string;
  kind: 'token' | 'oidc';
  token_id: string | null;
  subject: string;
  name: string;
  role: OperatorRole;
  created_at: number;
  expires_at: number;
  /** The session's grants, JSON OperatorGrant[] (migration 024). */
  grants: string | null;
}

export interface AssignmentsTable {
  id: string;
  user_id: string;
  certificate_vendor: string;
  title: string | null;
  created_at: number;
}

export interface CertificateAuthenticationStatesTable {
  id: string;
  state_hash: string;
  user_id: string;
  vendor: string;
  document: string;
  provider: string;
  assignment_id: string | null;
  status: 'pending' | 'completing' | 'issued';
  lease_until: number | null;
  expires_at: number;
  created_at: number;
}

export interface CertificateIssuancesTable {
  id: string;
  authentication_state_id: string;
  user_id: string;
  assignment_id: string | null;
  vendor: string;
  document: string;
  object_key: string;
  byte_size: number;
  vendor_reference: string | null;
  created_at: number;
  expires_at: number;
  deleted_at: number | null;
}

/** A release's manifest as signed at publish (migration 013). */
export interface SignedManifestsTable {
  release_id: string;
  namespace: string;
  certificate: string;
  body: string;
  signature: string;
  /** The base its asset URLs were built with (migration 019); null when signed before. */
  asset_base_url: string | null;
}

/** A release published to a share of devices (migration 014). */
export interface RolloutsTable {
  release_id: string;
  percent: number;
  state: 'running' | 'complete' | 'reverted' | 'halted' | 'superseded';
  halt_failure_rate: number | null;
  halt_min_devices: number | null;
  reason: string | null;
  updated_at: number;
}

/** A track entry that is not a release: rollBackToEmbedded (migration 014). `signed` is JSON. */
export interface DirectivesTable {
  seq: Generated<number>;
  id: string;
  channel: string;
  platform: string;
  runtime_version: string;
  type: 'rollBackToEmbedded';
  actor: string;
  signed: string;
  created_at: number;
  /** The app it belongs to (migration 024). */
  app_id: Generated<string>;
}

/** Devices (SHA-256 of EAS-Client-ID) seen running an update (migration 015). */
export interface UpdateChecksTable {
  update_id: string;
  device: string;
  first_seen: number;
  last_seen: number;
}

/** Devices that reported an update as failed or crashed on it (migration 015). */
export interface UpdateFailuresTable {
  update_id: string;
  device: string;
  kind: 'failed' | 'fatal';
  first_seen: number;
}

/** An update asset a garbage collection deletes, or deleted (migration 018). */
export interface AssetDeletionsTable {
  key: string;
  version: number;
  /** 1 while the deletion may still happen, 0 once it is over. */
  pending: number;
  run_id: string;
  updated_at: number;
}

/** The garbage collection running now, across instances (migration 018). */
export interface GcClaimsTable {
  name: string;
  run_id: string;
  /** `<hostname>:<pid>` of the process that holds the claim. */
  holder: string;
  expires_at: number;
}

/** A native build's embedded update, registered as a patch base (migration 020). */
export interface EmbeddedBundlesTable {
  update_id: string;
  platform: string;
  runtime_version: string;
  hash: string;
  size: number;
  object_key: string;
  registered_at: number;
  /** The app it belongs to (migration 024). */
  app_id: Generated<string>;
}

/** A patch from one launch bundle to another, by their hashes (migration 020). */
export interface BundlePatchesTable {
  base_hash: string;
  target_hash: string;
  base_key: string;
  target_key: string;
  base_kind: 'release' | 'embedded';
  base_update_id: string;
  state: 'pending' | 'ready' | 'larger' | 'failed';
  patch_key: string | null;
  size: number | null;
  full_size: number | null;
  /** `<hostname>:<pid>` of the process making it, until lease_until. */
  holder: string | null;
  lease_until: number | null;
  attempts: number;
  created_at: number;
  updated_at: number;
}

/** An app (migration 024): its signing key sealed (apps/app-key-vault.ts); null for the default app, which signs with the configured key. */
export interface AppsTable {
  slug: string;
  name: string;
  created_at: number;
  archived_at: number | null;
  key_id: string;
  certificate: string | null;
  signing_key: string | null;
}

/** An app's release token (migration 024): only its SHA-256 is kept. */
export interface AppReleaseTokensTable {
  id: string;
  app_id: string;
  name: string;
  token_hash: string;
  created_at: number;
  created_by: string;
  revoked_at: number | null;
}

export interface DatabaseSchema {
  apps: AppsTable;
  app_release_tokens: AppReleaseTokensTable;
  embedded_bundles: EmbeddedBundlesTable;
  bundle_patches: BundlePatchesTable;
  asset_deletions: AssetDeletionsTable;
  gc_claims: GcClaimsTable;
  rollouts: RolloutsTable;
  directives: DirectivesTable;
  update_checks: UpdateChecksTable;
  update_failures: UpdateFailuresTable;
  releases: ReleasesTable;
  signed_manifests: SignedManifestsTable;
  audit_events: AuditEventsTable;
  assignments: AssignmentsTable;
  certificate_authentication_states: CertificateAuthenticationStatesTable;
  certificate_issuances: CertificateIssuancesTable;
  operator_tokens: OperatorTokensTable;
  operator_sessions: OperatorSessionsTable;
}

export const parseJson = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
export const toJson = (value: unknown): string => JSON.stringify(value);
