import { randomUUID } from 'node:crypto';
import type { ReleaseAsset } from '@ferry/contracts';
import { currentAuditIdentity } from '../../auth/audit-identity.js';
import type { Database } from '../../storage/database.js';
import type { Executor } from '../../storage/locked-transaction.js';
import { parseJson, toJson } from '../../storage/schema.js';
import type { ReleaseForGc } from './releases-to-keep.js';

/** Release ids per query when reading assets: far below either engine's parameter limit. */
const BATCH = 500;

/** Where a release's assets live: the asset key is derived from channel, runtimeVersion and hash. */
export interface ReleaseAssetsRow {
  id: string;
  app: string;
  channel: string;
  runtimeVersion: string;
  hashes: string[];
}

/** A release as a collection first reads it, with when its rollout last changed. */
export interface ReleaseSnapshot extends ReleaseForGc {
  rolloutUpdatedAt: number | null;
}

/** A release published, or whose rollout changed, recently: what a collection reads again. */
export interface RecentRelease extends ReleaseAssetsRow {
  rolloutUpdatedAt: number | null;
}

export interface GcAuditEvent {
  actor: string;
  details: Record<string, unknown>;
}

/**
 * What asset garbage collection reads and writes, on SQLite and PostgreSQL alike: the releases with
 * their rollout state, the assets of chosen releases, and the audit event of a collection.
 */
export class KyselyGcStore {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Every release (of one app, or of all), without its assets: what releasesToKeep decides on. */
  async releases(app?: string): Promise<ReleaseSnapshot[]> {
    const rows = await this.db
      .selectFrom('releases')
      .leftJoin('rollouts', 'rollouts.release_id', 'releases.id')
      .$if(app !== undefined, (query) => query.where('releases.app_id', '=', app!))
      .select([
        'releases.id',
        'releases.app_id',
        'releases.channel',
        'releases.platform',
        'releases.runtime_version',
        'releases.created_at',
        'releases.seq',
        'rollouts.state',
        'rollouts.updated_at',
      ])
      .execute();
    return rows.map((row) => ({
      id: row.id,
      app: row.app_id,
      channel: row.channel,
      platform: row.platform,
      runtimeVersion: row.runtime_version,
      createdAt: Number(row.created_at),
      seq: Number(row.seq),
      rolloutState: row.state ?? null,
      rolloutUpdatedAt: row.updated_at === null ? null : Number(row.updated_at),
    }));
  }

  /** The launch asset and asset hashes of the given releases, read in batches. */
  async assetsOf(ids: readonly string[]): Promise<ReleaseAssetsRow[]> {
    const found: ReleaseAssetsRow[] = [];
    for (let start = 0; start < ids.length; start += BATCH) {
      const rows = await this.db
        .selectFrom('releases')
        .select(['id', 'app_id', 'channel', 'runtime_version', 'launch_asset', 'assets'])
        .where('id', 'in', ids.slice(start, start + BATCH))
        .execute();
      for (const row of rows) found.push(toAssetsRow(row));
    }
    return found;
  }

  /**
   * The releases published, or whose rollout changed, at or after `since` (epoch ms), with their
   * assets: what a collection reads again before each batch of deletions, to find releases that
   * were registered (or rollouts that changed) after it decided what to keep. `db` is the
   * transaction that holds the deletion lock, when there is one.
   */
  async changedSince(since: number, db: Executor = this.db): Promise<RecentRelease[]> {
    const rows = await db
      .selectFrom('releases')
      .leftJoin('rollouts', 'rollouts.release_id', 'releases.id')
      .select([
        'releases.id',
        'releases.app_id',
        'releases.channel',
        'releases.runtime_version',
        'releases.launch_asset',
        'releases.assets',
        'rollouts.updated_at',
      ])
      .where((eb) => eb.or([eb('releases.created_at', '>=', since), eb('rollouts.updated_at', '>=', since)]))
      .execute();
    return rows.map((row) => ({
      ...toAssetsRow(row),
      rolloutUpdatedAt: row.updated_at === null ? null : Number(row.updated_at),
    }));
  }

  async audit(app: string, event: GcAuditEvent, now: Date): Promise<void> {
    await this.db
      .insertInto('audit_events')
      .values({
        id: randomUUID(),
        type: 'assets.collected',
        actor: event.actor,
        channel: null,
        platform: null,
        runtime_version: null,
        release_id: null,
        details: toJson({ ...event.details, ...currentAuditIdentity() }),
        created_at: now.getTime(),
        app_id: app,
      })
      .execute();
  }
}

function toAssetsRow(row: {
  id: string;
  app_id: string;
  channel: string;
  runtime_version: string;
  launch_asset: unknown;
  assets: unknown;
}): ReleaseAssetsRow {
  const launch = parseJson<ReleaseAsset>(row.launch_asset);
  const assets = parseJson<ReleaseAsset[]>(row.assets) ?? [];
  return {
    id: row.id,
    app: row.app_id,
    channel: row.channel,
    runtimeVersion: row.runtime_version,
    hashes: [launch.hash, ...assets.map((asset) => asset.hash)],
  };
}
