import { randomUUID } from 'node:crypto';
import { type Release, type Track, trackName } from '@ferry/contracts';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { Database } from '../storage/database.js';
import { type DatabaseSchema, parseJson, type ReleasesTable, toJson } from '../storage/schema.js';
import type { ManifestSignature } from './manifest/release-signatures.js';
import type { LockedTrack, NewAuditEvent, NewRelease, ReleaseStore, SignedRelease } from './release-store.js';

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** Release ids per query when reading signatures in bulk: far below either engine's parameter limit. */
const SIGNATURE_BATCH = 500;

export const toRelease = (row: Selectable<ReleasesTable>): Release => ({
  id: row.id,
  channel: row.channel as Release['channel'],
  platform: row.platform as Release['platform'],
  runtimeVersion: row.runtime_version,
  launchAsset: parseJson(row.launch_asset),
  assets: parseJson(row.assets),
  otaConfig: row.ota_config === null ? null : parseJson(row.ota_config),
  updatePolicy: row.update_policy as Release['updatePolicy'],
  metadata: parseJson(row.metadata),
  createdAt: new Date(Number(row.created_at)).toISOString(),
});

const newestQuery = (db: Executor, track: Track) =>
  db
    .selectFrom('releases')
    .selectAll()
    .where('channel', '=', track.channel)
    .where('platform', '=', track.platform)
    .where('runtime_version', '=', track.runtimeVersion)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc');

async function insertRelease(db: Executor, release: NewRelease): Promise<Release> {
  const row = await db
    .insertInto('releases')
    .values({
      id: release.id,
      channel: release.channel,
      platform: release.platform,
      runtime_version: release.runtimeVersion,
      launch_asset: toJson(release.launchAsset),
      assets: toJson(release.assets),
      ota_config: release.otaConfig === null ? null : toJson(release.otaConfig),
      update_policy: release.updatePolicy,
      metadata: toJson(release.metadata),
      created_at: release.createdAt.getTime(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRelease(row);
}

async function saveSignatures(db: Executor, releaseId: string, signatures: ManifestSignature[]): Promise<void> {
  if (signatures.length === 0) return;
  await db
    .insertInto('signed_manifests')
    .values(
      signatures.map((signed) => ({
        release_id: releaseId,
        namespace: signed.namespace,
        certificate: signed.certificate,
        body: signed.body,
        signature: signed.signature,
      })),
    )
    // Two instances re-signing the same release after a key rotation write the same thing.
    .onConflict((conflict) =>
      conflict.columns(['release_id', 'namespace']).doUpdateSet((eb) => ({
        certificate: eb.ref('excluded.certificate'),
        body: eb.ref('excluded.body'),
        signature: eb.ref('excluded.signature'),
      })),
    )
    .execute();
}

async function insertAudit(db: Executor, event: NewAuditEvent, now: Date): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      id: randomUUID(),
      type: event.type,
      actor: event.actor,
      channel: event.track?.channel ?? null,
      platform: event.track?.platform ?? null,
      runtime_version: event.track?.runtimeVersion ?? null,
      release_id: event.releaseId ?? null,
      details: toJson(event.details),
      created_at: now.getTime(),
    })
    .execute();
}

const lockedTrack = (db: Executor, track: Track, now: () => Date): LockedTrack => ({
  newest: async () => {
    const row = await newestQuery(db, track).limit(1).executeTakeFirst();
    return row && toRelease(row);
  },
  recent: async (limit) => (await newestQuery(db, track).limit(limit).execute()).map(toRelease),
  insert: (release) => insertRelease(db, release),
  saveSignatures: (releaseId, signatures) => saveSignatures(db, releaseId, signatures),
  audit: (event) => insertAudit(db, event, now()),
});

/**
 * ReleaseStore over Kysely, for both engines. The queries are the same; only the way a track is
 * locked differs: PostgreSQL takes a transaction-scoped advisory lock on the track, SQLite takes
 * the database write lock up front (BEGIN IMMEDIATE), which also serializes other processes.
 */
export class KyselyReleaseStore implements ReleaseStore {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get db() {
    return this.database.db;
  }

  async newest(track: Track): Promise<Release | undefined> {
    const row = await newestQuery(this.db, track).limit(1).executeTakeFirst();
    return row && toRelease(row);
  }

  async newestSigned(track: Track): Promise<SignedRelease | undefined> {
    const release = await this.newest(track);
    if (!release) return undefined;
    const rows = await this.db
      .selectFrom('signed_manifests')
      .select(['namespace', 'certificate', 'body', 'signature'])
      .where('release_id', '=', release.id)
      .execute();
    return { release, signatures: rows as ManifestSignature[] };
  }

  saveSignatures(releaseId: string, signatures: ManifestSignature[]): Promise<void> {
    return saveSignatures(this.db, releaseId, signatures);
  }

  async newestSignedOfRecentTracks(limit: number): Promise<SignedRelease[]> {
    // The track index (channel, platform, runtime_version, created_at desc) answers the grouping.
    const recent = this.db
      .selectFrom('releases')
      .select(['channel', 'platform', 'runtime_version', (eb) => eb.fn.max('created_at').as('newest_at')])
      .groupBy(['channel', 'platform', 'runtime_version'])
      .orderBy('newest_at', 'desc')
      .limit(limit)
      .as('recent');
    const rows = await this.db
      .selectFrom('releases')
      .innerJoin(recent, (join) =>
        join
          .onRef('releases.channel', '=', 'recent.channel')
          .onRef('releases.platform', '=', 'recent.platform')
          .onRef('releases.runtime_version', '=', 'recent.runtime_version')
          .onRef('releases.created_at', '=', 'recent.newest_at'),
      )
      .selectAll('releases')
      .orderBy('releases.created_at', 'desc')
      .orderBy('releases.seq', 'desc')
      .execute();
    // Releases of one track stored at the same instant: the later insert is the newest (newestQuery).
    const newest = new Map<string, Release>();
    for (const release of rows.map(toRelease)) {
      // Channel and platform hold no slash, so the name is unique per track.
      if (!newest.has(trackName(release))) newest.set(trackName(release), release);
    }
    const releases = [...newest.values()];
    const signatures = new Map<string, ManifestSignature[]>();
    for (let start = 0; start < releases.length; start += SIGNATURE_BATCH) {
      const ids = releases.slice(start, start + SIGNATURE_BATCH).map((release) => release.id);
      const found = await this.db
        .selectFrom('signed_manifests')
        .select(['release_id', 'namespace', 'certificate', 'body', 'signature'])
        .where('release_id', 'in', ids)
        .execute();
      for (const { release_id, ...signature } of found) {
        signatures.set(release_id, [...(signatures.get(release_id) ?? []), signature as ManifestSignature]);
      }
    }
    return releases.map((release) => ({ release, signatures: signatures.get(release.id) ?? [] }));
  }

  async list(track: Track, limit: number): Promise<Release[]> {
    const rows = await newestQuery(this.db, track).limit(limit).execute();
    return rows.map(toRelease);
  }

  async findById(id: string): Promise<Release | undefined> {
    const row = await this.db.selectFrom('releases').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRelease(row);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('releases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async withTrackLock<T>(track: Track, work: (locked: LockedTrack) => Promise<T>): Promise<T> {
    if (this.database.engine === 'postgres') {
      return this.db.transaction().execute(async (trx) => {
        const key = `releases:${track.channel}:${track.platform}:${track.runtimeVersion}`;
        await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
        return work(lockedTrack(trx, track, this.now));
      });
    }
    return this.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const result = await work(lockedTrack(conn, track, this.now));
        await sql`commit`.execute(conn);
        return result;
      } catch (error) {
        await sql`rollback`.execute(conn);
        throw error;
      }
    });
  }
}
