import { DEFAULT_APP, PLATFORMS, type Release } from '@ferry/contracts';
import type { Selectable } from 'kysely';
import type { Database, Engine } from '../storage/database.js';
import { type Executor, withExclusiveLocks } from '../storage/locked-transaction.js';
import { type DirectivesTable, parseJson, type ReleasesTable, type RolloutsTable, toJson } from '../storage/schema.js';
import type { Track } from './app-track.js';
import { insertAudit } from './audit-event-insert.js';
import { deletionVersion, keysCollectedSince } from './gc/asset-deletions.js';
import type { ManifestSignature } from './manifest/release-signatures.js';
import { trackKey } from './manifest/track-key.js';
import { queuePatchesTo } from './patches/patch-queue.js';
import type {
  Directive,
  LockedTrack,
  NewRelease,
  ReleaseStore,
  Rollout,
  StoredEntry,
  StoredTimeline,
} from './release-store.js';

/** Release ids per query when reading signatures in bulk: far below either engine's parameter limit. */
const SIGNATURE_BATCH = 500;

const toTrack = (row: { app_id: string; channel: string; platform: string; runtime_version: string }): Track => ({
  app: row.app_id,
  channel: row.channel as Track['channel'],
  platform: row.platform as Track['platform'],
  runtimeVersion: row.runtime_version,
});

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
  groupId: row.group_id ?? null,
  app: row.app_id,
});

const toDirective = (row: Selectable<DirectivesTable>): Directive => ({
  id: row.id,
  app: row.app_id,
  channel: row.channel as Directive['channel'],
  platform: row.platform as Directive['platform'],
  runtimeVersion: row.runtime_version,
  type: row.type,
  actor: row.actor,
  createdAt: new Date(Number(row.created_at)).toISOString(),
});

const toRollout = (row: Selectable<RolloutsTable>): Rollout => ({
  releaseId: row.release_id,
  percent: Number(row.percent),
  state: row.state,
  haltRule:
    row.halt_failure_rate === null
      ? null
      : { failureRate: Number(row.halt_failure_rate), minDevices: Number(row.halt_min_devices ?? 1) },
  reason: row.reason,
  updatedAt: new Date(Number(row.updated_at)).toISOString(),
});

const directiveEntry = (row: Selectable<DirectivesTable>): StoredEntry => ({
  kind: 'directive',
  directive: toDirective(row),
  signatures: parseJson<ManifestSignature[]>(row.signed),
});

const EMPTY_TIMELINE: StoredTimeline = { head: undefined, rollout: undefined, fallback: undefined };

/** Which of a track's newest release and newest directive came later (a release on a tie). */
const laterOf = (
  release: Selectable<ReleasesTable> | undefined,
  directive: Selectable<DirectivesTable> | undefined,
): 'release' | 'directive' | undefined => {
  if (!release) return directive && 'directive';
  if (!directive) return 'release';
  return Number(directive.created_at) > Number(release.created_at) ? 'directive' : 'release';
};

const directivesQuery = (db: Executor, track: Track) =>
  db
    .selectFrom('directives')
    .selectAll()
    .where('app_id', '=', track.app)
    .where('channel', '=', track.channel)
    .where('platform', '=', track.platform)
    .where('runtime_version', '=', track.runtimeVersion)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc');

const toSignature = (row: {
  namespace: string;
  certificate: string;
  body: string;
  signature: string;
  asset_base_url: string | null;
}): ManifestSignature => ({
  namespace: row.namespace as ManifestSignature['namespace'],
  certificate: row.certificate,
  body: row.body,
  signature: row.signature,
  assetBaseUrl: row.asset_base_url,
});

async function signaturesOf(db: Executor, releaseId: string): Promise<ManifestSignature[]> {
  const rows = await db
    .selectFrom('signed_manifests')
    .select(['namespace', 'certificate', 'body', 'signature', 'asset_base_url'])
    .where('release_id', '=', releaseId)
    .execute();
  return rows.map(toSignature);
}

const releaseEntry = async (db: Executor, row: Selectable<ReleasesTable>): Promise<StoredEntry> => ({
  kind: 'release',
  release: toRelease(row),
  signatures: await signaturesOf(db, row.id),
});

/**
 * The track's head, its rollout and, when the rollout is not complete, the fallback: the newest
 * complete entry before the head (a release without a rollout or with a completed one, or a
 * directive). Queries run one after another: inside a lock they share one connection.
 */
async function readTimeline(db: Executor, track: Track): Promise<StoredTimeline> {
  const release = await newestQuery(db, track).limit(1).executeTakeFirst();
  const directive = await directivesQuery(db, track).limit(1).executeTakeFirst();
  const later = laterOf(release, directive);
  if (later === undefined) return EMPTY_TIMELINE;
  if (later === 'directive') return { head: directiveEntry(directive!), rollout: undefined, fallback: undefined };
  const head = await releaseEntry(db, release!);
  const row = await db.selectFrom('rollouts').selectAll().where('release_id', '=', release!.id).executeTakeFirst();
  if (!row || row.state === 'complete') return { head, rollout: undefined, fallback: undefined };
  const complete = await newestQuery(db, track)
    .leftJoin('rollouts', 'rollouts.release_id', 'releases.id')
    .where('releases.id', '!=', release!.id)
    .where((eb) => eb.or([eb('rollouts.release_id', 'is', null), eb('rollouts.state', '=', 'complete')]))
    .selectAll('releases')
    .limit(1)
    .executeTakeFirst();
  // The newest directive is older than the head here; it is the fallback if it is newer than that release.
  const fallbackKind = laterOf(complete, directive);
  const fallback =
    fallbackKind === 'release'
      ? await releaseEntry(db, complete!)
      : fallbackKind === 'directive'
        ? directiveEntry(directive!)
        : undefined;
  return { head, rollout: { releaseId: row.release_id, percent: Number(row.percent), state: row.state }, fallback };
}

const newestQuery = (db: Executor, track: Track) =>
  db
    .selectFrom('releases')
    .selectAll()
    .where('app_id', '=', track.app)
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
      // `url` is kept for servers older than this one during a rolling upgrade; this one builds
      // URLs from the configuration (ota/assets/asset-urls.ts).
      launch_asset: toJson(release.launchAsset),
      assets: toJson(release.assets),
      ota_config: release.otaConfig === null ? null : toJson(release.otaConfig),
      update_policy: release.updatePolicy,
      metadata: toJson(release.metadata),
      created_at: release.createdAt.getTime(),
      group_id: release.groupId,
      app_id: release.app,
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
        asset_base_url: signed.assetBaseUrl,
      })),
    )
    // Two instances re-signing the same release after a key rotation write the same thing.
    .onConflict((conflict) =>
      conflict.columns(['release_id', 'namespace']).doUpdateSet((eb) => ({
        certificate: eb.ref('excluded.certificate'),
        body: eb.ref('excluded.body'),
        signature: eb.ref('excluded.signature'),
        asset_base_url: eb.ref('excluded.asset_base_url'),
      })),
    )
    .execute();
}

/** A group's releases, in the order of PLATFORMS (the unique index allows one per platform). */
async function groupOf(db: Executor, app: string, groupId: string): Promise<Release[]> {
  const rows = await db
    .selectFrom('releases')
    .selectAll()
    .where('app_id', '=', app)
    .where('group_id', '=', groupId)
    .execute();
  return rows.map(toRelease).sort((a, b) => PLATFORMS.indexOf(a.platform) - PLATFORMS.indexOf(b.platform));
}

const lockedTrack = (db: Executor, engine: Engine, track: Track, now: () => Date, patchBases: number): LockedTrack => ({
  queuePatches: (release) => queuePatchesTo(db, release, patchBases, now().getTime()),
  newest: async () => {
    const row = await newestQuery(db, track).limit(1).executeTakeFirst();
    return row && toRelease(row);
  },
  group: (groupId) => groupOf(db, track.app, groupId),
  recent: async (limit) => (await newestQuery(db, track).limit(limit).execute()).map(toRelease),
  insert: (release) => insertRelease(db, release),
  saveSignatures: (releaseId, signatures) => saveSignatures(db, releaseId, signatures),
  audit: (event) => insertAudit(db, { ...event, app: track.app }, now()),
  timeline: () => readTimeline(db, track),
  newestEntryAt: async () => {
    const release = await newestQuery(db, track).select('created_at').limit(1).executeTakeFirst();
    const directive = await directivesQuery(db, track).limit(1).executeTakeFirst();
    const at = Math.max(
      Number(release?.created_at ?? Number.NEGATIVE_INFINITY),
      Number(directive?.created_at ?? Number.NEGATIVE_INFINITY),
    );
    return Number.isFinite(at) ? new Date(at) : undefined;
  },
  insertDirective: async (directive, signatures) => {
    await db
      .insertInto('directives')
      .values({
        id: directive.id,
        channel: directive.channel,
        platform: directive.platform,
        runtime_version: directive.runtimeVersion,
        type: directive.type,
        actor: directive.actor,
        signed: toJson(signatures),
        created_at: Date.parse(directive.createdAt),
        app_id: directive.app,
      })
      .execute();
  },
  insertRollout: async (rollout) => {
    await db
      .insertInto('rollouts')
      .values({
        release_id: rollout.releaseId,
        percent: rollout.percent,
        state: rollout.state,
        halt_failure_rate: rollout.haltRule?.failureRate ?? null,
        halt_min_devices: rollout.haltRule?.minDevices ?? null,
        reason: rollout.reason,
        updated_at: Date.parse(rollout.updatedAt),
      })
      .execute();
  },
  rollout: (releaseId) => findRollout(db, releaseId),
  assetsCollectedSince: (keys, since) => keysCollectedSince(db, engine, keys, since),
  deletionVersion: () => deletionVersion(db),
  updateRollout: async (releaseId, change) => {
    await db
      .updateTable('rollouts')
      .set({
        percent: change.percent,
        state: change.state,
        reason: change.reason,
        updated_at: Date.parse(change.updatedAt),
      })
      .where('release_id', '=', releaseId)
      .execute();
  },
  supersedeRollouts: async (reason, at) => {
    const rows = await db
      .updateTable('rollouts')
      .set({ state: 'superseded', reason, updated_at: at.getTime() })
      .where('state', 'in', ['running', 'halted'])
      .where('release_id', 'in', (eb) =>
        eb
          .selectFrom('releases')
          .select('id')
          .where('app_id', '=', track.app)
          .where('channel', '=', track.channel)
          .where('platform', '=', track.platform)
          .where('runtime_version', '=', track.runtimeVersion),
      )
      .returning('release_id')
      .execute();
    return rows.map((row) => row.release_id);
  },
});

async function findRollout(db: Executor, releaseId: string): Promise<Rollout | undefined> {
  const row = await db.selectFrom('rollouts').selectAll().where('release_id', '=', releaseId).executeTakeFirst();
  return row && toRollout(row);
}

/**
 * ReleaseStore over Kysely, for both engines. The queries are the same; only the way a track is
 * locked differs: PostgreSQL takes a transaction-scoped advisory lock on the track, SQLite takes
 * the database write lock up front (BEGIN IMMEDIATE), which also serializes other processes.
 */
export class KyselyReleaseStore implements ReleaseStore {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date = () => new Date(),
    /** Earlier releases (and embedded bundles) a new release gets bundle patches from (PATCH_BASES); 0: none. */
    private readonly patchBases = 0,
  ) {}

  private get db() {
    return this.database.db;
  }

  async newest(track: Track): Promise<Release | undefined> {
    const row = await newestQuery(this.db, track).limit(1).executeTakeFirst();
    return row && toRelease(row);
  }

  timeline(track: Track): Promise<StoredTimeline> {
    return readTimeline(this.db, track);
  }

  saveSignatures(releaseId: string, signatures: ManifestSignature[]): Promise<void> {
    return saveSignatures(this.db, releaseId, signatures);
  }

  async saveDirectiveSignatures(directiveId: string, signatures: ManifestSignature[]): Promise<void> {
    await this.db
      .updateTable('directives')
      .set({ signed: toJson(signatures) })
      .where('id', '=', directiveId)
      .execute();
  }

  rollout(releaseId: string): Promise<Rollout | undefined> {
    return findRollout(this.db, releaseId);
  }

  async haltableRollouts(releaseIds: string[]): Promise<Rollout[]> {
    const found: Rollout[] = [];
    for (let start = 0; start < releaseIds.length; start += SIGNATURE_BATCH) {
      const rows = await this.db
        .selectFrom('rollouts')
        .selectAll()
        .where('release_id', 'in', releaseIds.slice(start, start + SIGNATURE_BATCH))
        .where('state', '=', 'running')
        .where('halt_failure_rate', 'is not', null)
        .execute();
      found.push(...rows.map(toRollout));
    }
    return found;
  }

  async timelinesOfRecentTracks(limit: number): Promise<StoredTimeline[]> {
    // The track index (app_id, channel, platform, runtime_version, created_at desc) answers the grouping.
    const recent = this.db
      .selectFrom('releases')
      .select(['app_id', 'channel', 'platform', 'runtime_version', (eb) => eb.fn.max('created_at').as('newest_at')])
      .groupBy(['app_id', 'channel', 'platform', 'runtime_version'])
      .orderBy('newest_at', 'desc')
      .limit(limit)
      .as('recent');
    const rows = await this.db
      .selectFrom('releases')
      .innerJoin(recent, (join) =>
        join
          .onRef('releases.app_id', '=', 'recent.app_id')
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
    const newest = new Map<string, Selectable<ReleasesTable>>();
    for (const row of rows) {
      const name = trackKey(toTrack(row));
      if (!newest.has(name)) newest.set(name, row);
    }
    const heads = [...newest.values()];
    const ids = heads.map((row) => row.id);
    const signatures = new Map<string, ManifestSignature[]>();
    const rollouts = new Set<string>();
    for (let start = 0; start < ids.length; start += SIGNATURE_BATCH) {
      const batch = ids.slice(start, start + SIGNATURE_BATCH);
      const found = await this.db
        .selectFrom('signed_manifests')
        .select(['release_id', 'namespace', 'certificate', 'body', 'signature', 'asset_base_url'])
        .where('release_id', 'in', batch)
        .execute();
      for (const row of found) {
        signatures.set(row.release_id, [...(signatures.get(row.release_id) ?? []), toSignature(row)]);
      }
      const open = await this.db
        .selectFrom('rollouts')
        .select('release_id')
        .where('release_id', 'in', batch)
        .where('state', '!=', 'complete')
        .execute();
      for (const { release_id } of open) rollouts.add(release_id);
    }
    // Directives are few (one per roll back to embedded): read the newest of every track at once.
    const directives = new Map<string, Selectable<DirectivesTable>>();
    const directiveRows = await this.db
      .selectFrom('directives')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .execute();
    for (const row of directiveRows) {
      const name = trackKey(toTrack(row));
      if (!directives.has(name)) directives.set(name, row);
    }
    const timelines: StoredTimeline[] = [];
    for (const row of heads) {
      const track = toTrack(row);
      const directive = directives.get(trackKey(track));
      if (laterOf(row, directive) === 'directive') {
        timelines.push({ head: directiveEntry(directive!), rollout: undefined, fallback: undefined });
      } else if (rollouts.has(row.id)) {
        // A rollout under way needs its fallback too: few tracks, read one by one.
        timelines.push(await readTimeline(this.db, track));
      } else {
        const head: StoredEntry = {
          kind: 'release',
          release: toRelease(row),
          signatures: signatures.get(row.id) ?? [],
        };
        timelines.push({ head, rollout: undefined, fallback: undefined });
      }
    }
    return timelines;
  }

  async list(track: Track, limit: number): Promise<Release[]> {
    const rows = await newestQuery(this.db, track).limit(limit).execute();
    return rows.map(toRelease);
  }

  async findById(app: string, id: string): Promise<Release | undefined> {
    const row = await this.db
      .selectFrom('releases')
      .selectAll()
      .where('app_id', '=', app)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRelease(row);
  }

  async findByIdInAnyApp(id: string): Promise<Release | undefined> {
    const row = await this.db.selectFrom('releases').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRelease(row);
  }

  group(app: string, groupId: string): Promise<Release[]> {
    return groupOf(this.db, app, groupId);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('releases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  withTrackLock<T>(track: Track, work: (locked: LockedTrack) => Promise<T>): Promise<T> {
    return this.withTracksLock([track], ([locked]) => work(locked!));
  }

  withTracksLock<T>(tracks: Track[], work: (locked: LockedTrack[]) => Promise<T>): Promise<T> {
    // The default app's tracks keep the lock names of the version before apps, which may still be
    // publishing during a rolling upgrade.
    const names = tracks.map(
      (track) =>
        `releases:${track.app === DEFAULT_APP ? '' : `${track.app}:`}${track.channel}:${track.platform}:${track.runtimeVersion}`,
    );
    return withExclusiveLocks(this.database, names, (db) =>
      work(tracks.map((track) => lockedTrack(db, this.database.engine, track, this.now, this.patchBases))),
    );
  }
}
