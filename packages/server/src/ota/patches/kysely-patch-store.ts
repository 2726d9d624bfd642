import type { BundlePatch } from '@ferry/contracts';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Database } from '../../storage/database.js';
import { validateObjectKey } from '../../storage/objects/object-key.js';
import type { BundlePatchesTable, DatabaseSchema } from '../../storage/schema.js';
import { holderMayRun } from '../gc/asset-deletions.js';
import { launchHashOf } from './patch-queue.js';
import { PATCH_MAX_ATTEMPTS } from './patch-verdict.js';

export type PatchRow = Selectable<BundlePatchesTable>;

/** The row of a claim `holder` still holds: what renewing, finishing or giving it back may change. */
const heldBy =
  (row: Pick<PatchRow, 'base_hash' | 'target_hash'>, holder: string) =>
  (eb: ExpressionBuilder<DatabaseSchema, 'bundle_patches'>) =>
    eb.and({ base_hash: row.base_hash, target_hash: row.target_hash, state: 'pending', holder });

/** Where a patch from `baseHash` to `targetHash` is stored: content-addressed by the pair. */
export const patchKey = (baseHash: string, targetHash: string): string =>
  validateObjectKey(`patches/${baseHash}/${targetHash}`);

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
 * Bundle patches in the database (migration 020): one maker per patch across instances (a lease),
 * what serving looks up, and what listing and garbage collection read. Queueing is patch-queue.ts.
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
      .where(heldBy(row, holder))
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
      .where(heldBy(row, holder))
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
      .where(heldBy(row, holder))
      .execute();
  }

  /** Forgets a claimed patch that cannot be made (its base or target is no longer stored). */
  async forgetClaimed(row: PatchRow, holder: string): Promise<boolean> {
    const result = await this.db.deleteFrom('bundle_patches').where(heldBy(row, holder)).executeTakeFirst();
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
}
