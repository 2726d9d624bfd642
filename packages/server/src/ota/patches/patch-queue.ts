import type { Release } from '@ferry/contracts';
import type { Selectable } from 'kysely';
import type { Executor } from '../../storage/locked-transaction.js';
import { updateAssetKey } from '../../storage/objects/object-key.js';
import type { EmbeddedBundlesTable } from '../../storage/schema.js';
import { parseJson } from '../../storage/schema.js';
import { type PatchBase, patchBasesFor } from './patch-bases.js';

type EmbeddedRow = Selectable<EmbeddedBundlesTable>;

export const launchHashOf = (row: { launch_asset: unknown }): string =>
  parseJson<{ hash: string }>(row.launch_asset).hash;

export const embeddedBase = (row: EmbeddedRow): PatchBase => ({
  kind: 'embedded',
  updateId: row.update_id,
  hash: row.hash,
  key: row.object_key,
});

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
        key: updateAssetKey(target.app, target.channel, target.runtimeVersion, hash),
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
      key: updateAssetKey(target.app, target.channel, target.runtimeVersion, target.launchAsset.hash),
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
