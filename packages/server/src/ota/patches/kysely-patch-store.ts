import type { BundlePatch, EmbeddedBundle, Platform, Release } from '@ferry/contracts';
import type { Selectable } from 'kysely';
import { DomainError } from '../../errors/domain-error.js';
import type { Database } from '../../storage/database.js';
import type { Executor } from '../../storage/locked-transaction.js';
import { keySegmentOf, updateAssetKey, validateObjectKey } from '../../storage/objects/object-key.js';
import type { BundlePatchesTable, EmbeddedBundlesTable } from '../../storage/schema.js';
import { parseJson } from '../../storage/schema.js';
import { insertAudit } from '../audit-event-insert.js';
import { holderMayRun } from '../gc/asset-deletions.js';
import { type PatchBase, patchBasesFor } from './patch-bases.js';
import { PATCH_MAX_ATTEMPTS } from './patch-verdict.js';

export type PatchRow = Selectable<BundlePatchesTable>;
type EmbeddedRow = Selectable<EmbeddedBundlesTable>;

/** Where a patch from `baseHash` to `targetHash` is stored: content-addressed by the pair. */
export const patchKey = (baseHash: string, targetHash: string): string =>
  validateObjectKey(`patches/${baseHash}/${targetHash}`);

/** Where an embedded bundle is stored: by platform, runtime version and its own hash. */
export const embeddedBundleKey = (platform: Platform, runtimeVersion: string, hash: string): string =>
  validateObjectKey(`embedded/${platform}/${keySegmentOf(runtimeVersion)}/${hash}`);

/** Whether a patch's base is read from a registered embedded bundle (never collected). */
export const isEmbeddedBundleKey = (key: string): boolean => key.startsWith('embedded/');

const launchHashOf = (row: { launch_asset: unknown }): string => parseJson<{ hash: string }>(row.launch_asset).hash;

const toEmbedded = (row: EmbeddedRow): EmbeddedBundle => ({
  platform: row.platform as Platform,
  runtimeVersion: row.runtime_version,
  updateId: row.update_id,
  hash: row.hash,
  bytes: Number(row.size),
  registeredAt: new Date(Number(row.registered_at)).toISOString(),
});

const embeddedBase = (row: EmbeddedRow): PatchBase => ({
  kind: 'embedded',
  updateId: row.update_id,
  hash: row.hash,
  key: row.object_key,
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

/** A launch bundle a device may run, as a patch's base: found by the update id it reports. */
export interface KnownBase {
  hash: string;
  /** The release's channel, or undefined for an embedded bundle (it serves every channel). */
  channel: string | undefined;
  runtimeVersion: string;
}

/** What a ready patch offers a device. */
export interface PatchOffer {
  key: string;
  size: number;
  fullSize: number;
}

/**
 * Queues the patches to `target`'s launch bundle (patchBasesFor), in the caller's transaction (a
 * publish's, so the work is as durable as the release). A pair already queued or made is left as it is.
 */
export async function queuePatchesTo(db: Executor, target: Release, limit: number, at: number): Promise<number> {
  if (limit <= 0) return 0;
  const earlier = await db
    .selectFrom('releases')
    .select(['id', 'launch_asset'])
    .where('channel', '=', target.channel)
    .where('platform', '=', target.platform)
    .where('runtime_version', '=', target.runtimeVersion)
    .where('id', '!=', target.id)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    // Enough rows for `limit` distinct bundles when a few repeat (rollbacks republish one).
    .limit(limit * 4)
    .execute();
  const embedded = await embeddedRows(db, target.platform, target.runtimeVersion, limit * 4);
  const bases = patchBasesFor(
    target.launchAsset.hash,
    earlier.map((row) => {
      const hash = launchHashOf(row);
      return {
        kind: 'release',
        updateId: row.id,
        hash,
        key: updateAssetKey(target.channel, target.runtimeVersion, hash),
      } satisfies PatchBase;
    }),
    embedded.map(embeddedBase),
    limit,
  );
  return queuePatches(
    db,
    bases,
    {
      hash: target.launchAsset.hash,
      key: updateAssetKey(target.channel, target.runtimeVersion, target.launchAsset.hash),
    },
    at,
  );
}

/** Queues patches from `bases` to one target; returns how many were new. */
export async function queuePatches(
  db: Executor,
  bases: readonly PatchBase[],
  target: { hash: string; key: string },
  at: number,
): Promise<number> {
  if (bases.length === 0) return 0;
  const inserted = await db
    .insertInto('bundle_patches')
    .values(
      bases.map((base) => ({
        base_hash: base.hash,
        target_hash: target.hash,
        base_key: base.key,
        target_key: target.key,
        base_kind: base.kind,
        base_update_id: base.updateId,
        state: 'pending' as const,
        attempts: 0,
        created_at: at,
        updated_at: at,
      })),
    )
    .onConflict((conflict) => conflict.columns(['base_hash', 'target_hash']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0);
}

function embeddedRows(db: Executor, platform: string, runtimeVersion: string, limit: number) {
  return db
    .selectFrom('embedded_bundles')
    .selectAll()
    .where('platform', '=', platform)
    .where('runtime_version', '=', runtimeVersion)
    .orderBy('registered_at', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Bundle patches and embedded bundles in the database (migration 020): queueing at publish, one
 * maker per patch across instances (a lease), what serving looks up, and what listing and garbage
 * collection read.
 */
export class KyselyPatchStore {
  constructor(
    private readonly database: Database,
    private readonly now: () => number = Date.now,
  ) {}

  private get db() {
    return this.database.db;
  }

  /**
   * Takes the oldest pending patch nobody holds (or whose holder's lease ran out, or whose holder
   * process on this host is gone) for `holder` until now + leaseMs. The update only succeeds if the
   * row is still as it was read, so two instances never both take it.
   */
  async claimNext(holder: string, leaseMs: number): Promise<PatchRow | undefined> {
    const now = this.now();
    const candidates = await this.db
      .selectFrom('bundle_patches')
      .selectAll()
      .where('state', '=', 'pending')
      .orderBy('created_at')
      .limit(20)
      .execute();
    for (const row of candidates) {
      // Free: never claimed, given back and past its retry delay, past its lease, or held by a
      // process of this host that is gone.
      const free =
        Number(row.lease_until ?? 0) < now ||
        (row.holder !== null && row.holder !== holder && !holderMayRun(row.holder));
      if (!free) continue;
      if (row.attempts >= PATCH_MAX_ATTEMPTS) {
        // Its makers died or failed every time: it is not tried again.
        await this.db
          .updateTable('bundle_patches')
          .set({ state: 'failed', holder: null, lease_until: null, updated_at: now })
          .where('base_hash', '=', row.base_hash)
          .where('target_hash', '=', row.target_hash)
          .where('state', '=', 'pending')
          .where('attempts', '=', row.attempts)
          .execute();
        continue;
      }
      let claim = this.db
        .updateTable('bundle_patches')
        .set({ holder, lease_until: now + leaseMs, attempts: row.attempts + 1, updated_at: now })
        .where('base_hash', '=', row.base_hash)
        .where('target_hash', '=', row.target_hash)
        .where('state', '=', 'pending')
        .where('attempts', '=', row.attempts);
      claim = row.holder === null ? claim.where('holder', 'is', null) : claim.where('holder', '=', row.holder);
      const result = await claim.executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) {
        return { ...row, holder, lease_until: now + leaseMs, attempts: row.attempts + 1 };
      }
    }
    return undefined;
  }

  /** Extends a claim while its patch is being made; false when another holder has taken it. */
  async renew(row: PatchRow, holder: string, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('bundle_patches')
      .set({ lease_until: this.now() + leaseMs })
      .where('base_hash', '=', row.base_hash)
      .where('target_hash', '=', row.target_hash)
      .where('state', '=', 'pending')
      .where('holder', '=', holder)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records what became of a claimed patch; ignored when the claim was lost meanwhile. */
  async finish(
    row: PatchRow,
    holder: string,
    outcome: { state: 'ready' | 'larger' | 'failed'; patchKey?: string; size?: number; fullSize?: number },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('bundle_patches')
      .set({
        state: outcome.state,
        patch_key: outcome.patchKey ?? null,
        size: outcome.size ?? null,
        full_size: outcome.fullSize ?? null,
        holder: null,
        lease_until: null,
        updated_at: this.now(),
      })
      .where('base_hash', '=', row.base_hash)
      .where('target_hash', '=', row.target_hash)
      .where('state', '=', 'pending')
      .where('holder', '=', holder)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Gives a claimed patch back after a failure that may pass (a store outage): it is claimed again
   * after `retryAfterMs`, and marked failed once its attempts run out (claimNext).
   */
  async giveBack(row: PatchRow, holder: string, retryAfterMs: number): Promise<void> {
    const now = this.now();
    await this.db
      .updateTable('bundle_patches')
      .set({ holder: null, lease_until: now + retryAfterMs, updated_at: now })
      .where('base_hash', '=', row.base_hash)
      .where('target_hash', '=', row.target_hash)
      .where('state', '=', 'pending')
      .where('holder', '=', holder)
      .execute();
  }

  /** Forgets a claimed patch that cannot be made (its base or target is no longer stored). */
  async forgetClaimed(row: PatchRow, holder: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('bundle_patches')
      .where('base_hash', '=', row.base_hash)
      .where('target_hash', '=', row.target_hash)
      .where('state', '=', 'pending')
      .where('holder', '=', holder)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** How many patches wait to be made (a claimed one included). */
  async pendingCount(): Promise<number> {
    const row = await this.db
      .selectFrom('bundle_patches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The launch bundle of the update a device says it runs: a release (with its channel), or a
   * registered embedded bundle of the runtime version; undefined for anything else.
   */
  async baseOf(updateId: string, runtimeVersion: string): Promise<KnownBase | undefined> {
    const release = await this.db
      .selectFrom('releases')
      .select(['channel', 'runtime_version', 'launch_asset'])
      .where('id', '=', updateId)
      .executeTakeFirst();
    if (release) {
      return { hash: launchHashOf(release), channel: release.channel, runtimeVersion: release.runtime_version };
    }
    const embedded = await this.db
      .selectFrom('embedded_bundles')
      .select(['hash', 'runtime_version'])
      .where('update_id', '=', updateId)
      .where('runtime_version', '=', runtimeVersion)
      .executeTakeFirst();
    return embedded && { hash: embedded.hash, channel: undefined, runtimeVersion: embedded.runtime_version };
  }

  /** The ready patch from one bundle to another, if there is one. */
  async offer(baseHash: string, targetHash: string): Promise<PatchOffer | undefined> {
    const row = await this.db
      .selectFrom('bundle_patches')
      .select(['patch_key', 'size', 'full_size'])
      .where('base_hash', '=', baseHash)
      .where('target_hash', '=', targetHash)
      .where('state', '=', 'ready')
      .executeTakeFirst();
    if (!row?.patch_key) return undefined;
    return { key: row.patch_key, size: Number(row.size), fullSize: Number(row.full_size) };
  }

  /** The patches to each of these launch bundles, for listings: newest base first. */
  async patchesTo(targetHashes: readonly string[]): Promise<Map<string, BundlePatch[]>> {
    const byTarget = new Map<string, BundlePatch[]>();
    if (targetHashes.length === 0) return byTarget;
    const rows = await this.db
      .selectFrom('bundle_patches')
      .select(['target_hash', 'base_kind', 'base_update_id', 'state', 'size', 'full_size'])
      .where('target_hash', 'in', [...new Set(targetHashes)])
      .orderBy('created_at')
      .execute();
    for (const row of rows) {
      const list = byTarget.get(row.target_hash) ?? [];
      list.push({
        base: { kind: row.base_kind, updateId: row.base_update_id },
        state: row.state,
        bytes: row.size === null ? null : Number(row.size),
        fullBytes: row.full_size === null ? null : Number(row.full_size),
      });
      byTarget.set(row.target_hash, list);
    }
    return byTarget;
  }

  /** Every patch row, for garbage collection. */
  all(): Promise<PatchRow[]> {
    return this.db.selectFrom('bundle_patches').selectAll().execute();
  }

  async forget(row: Pick<PatchRow, 'base_hash' | 'target_hash'>): Promise<void> {
    await this.db
      .deleteFrom('bundle_patches')
      .where('base_hash', '=', row.base_hash)
      .where('target_hash', '=', row.target_hash)
      .execute();
  }

  /** The registered embedded bundle with this update id, if any. */
  async embedded(updateId: string): Promise<EmbeddedBundle | undefined> {
    const row = await this.db
      .selectFrom('embedded_bundles')
      .selectAll()
      .where('update_id', '=', updateId)
      .executeTakeFirst();
    return row && toEmbedded(row);
  }

  /** Registered embedded bundles, newest first. */
  async listEmbedded(filter: { platform?: Platform; runtimeVersion?: string }): Promise<EmbeddedBundle[]> {
    let query = this.db.selectFrom('embedded_bundles').selectAll().orderBy('registered_at', 'desc').limit(1000);
    if (filter.platform) query = query.where('platform', '=', filter.platform);
    if (filter.runtimeVersion) query = query.where('runtime_version', '=', filter.runtimeVersion);
    return (await query.execute()).map(toEmbedded);
  }

  /**
   * Registers an embedded bundle (already stored at `key`) and queues patches from it to the
   * newest release of every track of its platform and runtime version. Registering the same update
   * again changes nothing. One transaction: a registration is never half made.
   */
  async registerEmbedded(
    bundle: Omit<EmbeddedBundle, 'registeredAt'> & { key: string },
    actor: string,
  ): Promise<{ bundle: EmbeddedBundle; created: boolean; queued: number }> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('embedded_bundles')
        .selectAll()
        .where('update_id', '=', bundle.updateId)
        .executeTakeFirst();
      if (existing && existing.hash !== bundle.hash) throw new EmbeddedBundleConflict(bundle.updateId);
      if (existing) return { bundle: toEmbedded(existing), created: false, queued: 0 };
      const row: EmbeddedRow = {
        update_id: bundle.updateId,
        platform: bundle.platform,
        runtime_version: bundle.runtimeVersion,
        hash: bundle.hash,
        size: bundle.bytes,
        object_key: bundle.key,
        registered_at: this.now(),
      };
      await trx.insertInto('embedded_bundles').values(row).execute();
      const heads = await newestReleasesOfRuntime(trx, bundle.platform, bundle.runtimeVersion);
      let queued = 0;
      for (const head of heads) {
        const hash = launchHashOf(head);
        if (hash === bundle.hash) continue;
        queued += await queuePatches(
          trx,
          [embeddedBase(row)],
          { hash, key: updateAssetKey(head.channel, head.runtime_version, hash) },
          row.registered_at,
        );
      }
      await insertAudit(
        trx,
        {
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
async function newestReleasesOfRuntime(db: Executor, platform: string, runtimeVersion: string) {
  const rows = await db
    .selectFrom('releases')
    .select(['channel', 'runtime_version', 'launch_asset', 'created_at', 'seq'])
    .where('platform', '=', platform)
    .where('runtime_version', '=', runtimeVersion)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .execute();
  const newest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) if (!newest.has(row.channel)) newest.set(row.channel, row);
  return [...newest.values()];
}
