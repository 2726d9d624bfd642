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
}

export interface DatabaseSchema {
  releases: ReleasesTable;
  audit_events: AuditEventsTable;
}

export const parseJson = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
export const toJson = (value: unknown): string => JSON.stringify(value);
