import type { EmbeddedBundle, Platform } from '@ferry/contracts';
import type { Selectable } from 'kysely';
import { DomainError } from '../../errors/domain-error.js';
import type { Database } from '../../storage/database.js';
import { type Executor, withWriteTransaction } from '../../storage/locked-transaction.js';
import { keySegmentOf, updateAssetKey, validateObjectKey } from '../../storage/objects/object-key.js';
import type { EmbeddedBundlesTable } from '../../storage/schema.js';
import { insertAudit } from '../audit-event-insert.js';
import { embeddedBase, launchHashOf, queuePatches } from './patch-queue.js';

type EmbeddedRow = Selectable<EmbeddedBundlesTable>;

/** Where an embedded bundle is stored: by platform, runtime version and its own hash. */
export const embeddedBundleKey = (platform: Platform, runtimeVersion: string, hash: string): string =>
  validateObjectKey(`embedded/${platform}/${keySegmentOf(runtimeVersion)}/${hash}`);

/** Whether a patch's base is read from a registered embedded bundle (never collected). */
export const isEmbeddedBundleKey = (key: string): boolean => key.startsWith('embedded/');

const toEmbedded = (row: EmbeddedRow): EmbeddedBundle => ({
  platform: row.platform as Platform,
  runtimeVersion: row.runtime_version,
  updateId: row.update_id,
  hash: row.hash,
  bytes: Number(row.size),
  registeredAt: new Date(Number(row.registered_at)).toISOString(),
});

/** An update id registered before with other bytes: a build's embedded update has one bundle. */
export class EmbeddedBundleConflict extends DomainError {
  override name = 'EmbeddedBundleConflict';
  constructor(updateId: string) {
    super(
      'conflict',
      'EMBEDDED_BUNDLE_CONFLICT',
      `The embedded update ${updateId} is already registered with another bundle; an update id names one bundle. Check that the bundle comes from the same build as its app.manifest.`,
      { updateId },
    );
  }
}

/**
 * The embedded bundles of native builds (migration 020), registered with `ferry embedded upload`
 * as bases of bundle patches.
 */
export class KyselyEmbeddedBundles {
  constructor(
    private readonly database: Database,
    private readonly now: () => number = Date.now,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** The registered embedded bundle with this update id, if any. */
  async find(app: string, updateId: string): Promise<EmbeddedBundle | undefined> {
    const row = await this.db
      .selectFrom('embedded_bundles')
      .selectAll()
      .where('app_id', '=', app)
      .where('update_id', '=', updateId)
      .executeTakeFirst();
    return row && toEmbedded(row);
  }

  /** Registered embedded bundles, newest first. */
  async list(app: string, filter: { platform?: Platform; runtimeVersion?: string }): Promise<EmbeddedBundle[]> {
    let query = this.db
      .selectFrom('embedded_bundles')
      .selectAll()
      .where('app_id', '=', app)
      .orderBy('registered_at', 'desc')
      .limit(1000);
    if (filter.platform) query = query.where('platform', '=', filter.platform);
    if (filter.runtimeVersion) query = query.where('runtime_version', '=', filter.runtimeVersion);
    return (await query.execute()).map(toEmbedded);
  }

  /**
   * Registers an embedded bundle (already stored at `key`) and queues patches from it to the
   * newest release of every track of its platform and runtime version. Registering the same update
   * again changes nothing. One transaction: a registration is never half made.
   */
  async register(
    app: string,
    bundle: Omit<EmbeddedBundle, 'registeredAt'> & { key: string },
    actor: string,
  ): Promise<{ bundle: EmbeddedBundle; created: boolean; queued: number }> {
    return withWriteTransaction(this.db, async (trx) => {
      const existing = await trx
        .selectFrom('embedded_bundles')
        .selectAll()
        .where('update_id', '=', bundle.updateId)
        .executeTakeFirst();
      // Another app's build with the same update id: a conflict, and nothing of it is shown.
      if (existing && (existing.app_id !== app || existing.hash !== bundle.hash))
        throw new EmbeddedBundleConflict(bundle.updateId);
      if (existing) return { bundle: toEmbedded(existing), created: false, queued: 0 };
      const row: EmbeddedRow = {
        update_id: bundle.updateId,
        platform: bundle.platform,
        runtime_version: bundle.runtimeVersion,
        hash: bundle.hash,
        size: bundle.bytes,
        object_key: bundle.key,
        registered_at: this.now(),
        app_id: app,
      };
      await trx.insertInto('embedded_bundles').values(row).execute();
      const heads = await newestReleasesOfRuntime(trx, app, bundle.platform, bundle.runtimeVersion);
      let queued = 0;
      for (const head of heads) {
        const hash = launchHashOf(head);
        if (hash === bundle.hash) continue;
        queued += await queuePatches(
          trx,
          [embeddedBase(row)],
          { hash, key: updateAssetKey(head.app_id, head.channel, head.runtime_version, hash) },
          row.registered_at,
        );
      }
      await insertAudit(
        trx,
        {
          app,
          type: 'embedded.registered',
          actor,
          details: {
            platform: bundle.platform,
            runtimeVersion: bundle.runtimeVersion,
            updateId: bundle.updateId,
            hash: bundle.hash,
            bytes: bundle.bytes,
            patchesQueued: queued,
          },
        },
        new Date(row.registered_at),
      );
      return { bundle: toEmbedded(row), created: true, queued };
    });
  }
}

/** The newest release of each channel on a platform and runtime version. */
async function newestReleasesOfRuntime(db: Executor, app: string, platform: string, runtimeVersion: string) {
  const rows = await db
    .selectFrom('releases')
    .select(['app_id', 'channel', 'runtime_version', 'launch_asset', 'created_at', 'seq'])
    .where('app_id', '=', app)
    .where('platform', '=', platform)
    .where('runtime_version', '=', runtimeVersion)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .execute();
  const newest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) if (!newest.has(row.channel)) newest.set(row.channel, row);
  return [...newest.values()];
}
