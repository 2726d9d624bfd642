import { randomUUID } from 'node:crypto';
import { ASSET_GC_SAMPLE_SIZE, type AssetGcRequest, type AssetGcResponse, type ObjectTally } from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import pLimit from 'p-limit';
import { DependencyUnavailable, DomainError } from '../../errors/domain-error.js';
import type { Executor } from '../../storage/locked-transaction.js';
import {
  appOfAssetKey,
  assetHashOfKey,
  updateAssetKey,
  updateAssetsPrefixOf,
} from '../../storage/objects/object-key.js';
import type { ListedObject, ObjectStore } from '../../storage/objects/object-store.js';
import { isEmbeddedBundleKey } from '../patches/kysely-embedded-bundles.js';
import type { KyselyPatchStore } from '../patches/kysely-patch-store.js';
import type { DeletionMarks } from './asset-deletions.js';
import type { KyselyGcStore, ReleaseAssetsRow } from './kysely-gc-store.js';
import { releasesToKeep } from './releases-to-keep.js';

/** Deletions in flight at once: S3 answers each in tens of milliseconds; more would only queue. */
export const GC_DELETE_CONCURRENCY = 16;
/** Objects decided on between two re-reads of recent releases (one listing page on S3). */
export const GC_BATCH_SIZE = 1000;
/**
 * How far before its start a collection looks for releases published (or rollouts changed) while
 * it runs. A publish stamps its release inside its own transaction, before it commits: this bounds
 * how long that transaction may take for its release to still be found.
 */
export const GC_CHANGE_MARGIN_MS = 5 * 60 * 1000;

/** `encoded/<br|gzip>/<etag>/<key>` (asset-encodings.ts): the compressed forms stored beside an asset. */
const ENCODED_FORM = /^encoded\/(?:br|gzip)\/[^/]+\/(updates\/.+)$/;
/** The update asset a compressed form was made from, or undefined when it is not one. */
export const sourceOfEncodedForm = (key: string): string | undefined => {
  const source = ENCODED_FORM.exec(key)?.[1];
  return source !== undefined && assetHashOfKey(source) !== undefined ? source : undefined;
};

export class GcInProgress extends DomainError {
  override name = 'GcInProgress';
  constructor() {
    super(
      'conflict',
      'GC_IN_PROGRESS',
      'A garbage collection is already running; wait for it to finish and run again.',
    );
  }
}

export interface AssetCollectorDeps {
  store: Pick<KyselyGcStore, 'releases' | 'assetsOf' | 'changedSince' | 'audit'>;
  /** The marks that keep publishes from listing what a run deletes (asset-deletions.ts). */
  deletions: { run(runId: string): DeletionMarks };
  objects: ObjectStore;
  /** Objects younger than this are never deleted (ASSET_GC_GRACE_SECONDS). */
  graceSeconds: number;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Bundle patches, collected with their base or target; without it none are (unit tests). */
  patches?: Pick<KyselyPatchStore, 'all' | 'forget'>;
}

const tally = (): ObjectTally => ({ objects: 0, bytes: 0 });
const add = (to: ObjectTally, object: ListedObject) => {
  to.objects++;
  to.bytes += object.size;
};

/**
 * Asset garbage collection. It first works out every asset key a kept release lists (the
 * `referenced` set: releasesToKeep decides which releases), and only then lists the store and
 * deletes what is neither referenced nor younger than the grace period: unreferenced update assets
 * first, then compressed forms whose asset is gone. Every deletion stands alone, so a collection
 * stopped at any point (a crash, kill -9) has removed only unreferenced objects and the next one
 * finishes the job.
 *
 * A publish may list an old asset again while a collection runs (it finds it stored and uploads
 * nothing). So before each batch of update-asset deletions the collection, holding the deletion
 * lock exclusively, reads again the releases published (or whose rollout changed) since shortly
 * before it started, keeps what they list, and marks the rest pending deletion; the marks end
 * once the batch is deleted. A publish checks those marks in its own transaction, holding the lock
 * shared (asset-deletions.ts): a release either committed before the marks, and its assets are
 * kept, or it sees them and is refused with ASSET_MISSING. Only one collection runs at a time,
 * across instances (a claim in the database).
 */
export class AssetCollector {
  private running = false;
  private readonly now: () => Date;

  constructor(private readonly deps: AssetCollectorDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Collects one app's objects (apps.md): only keys under its own prefixes are listed and deleted.
   * What stays is decided over every app's kept releases, so a patch another app's devices use
   * (the same bundles, by hash) stays too.
   */
  async collect(app: string, request: AssetGcRequest, actor: string): Promise<AssetGcResponse> {
    // One at a time per instance: a second one would only list and delete the same objects.
    if (this.running) throw new GcInProgress();
    this.running = true;
    try {
      return await this.run(app, request, actor);
    } finally {
      this.running = false;
    }
  }

  private async run(app: string, request: AssetGcRequest, actor: string): Promise<AssetGcResponse> {
    const { log, graceSeconds } = this.deps;
    const { dryRun } = request;
    const startedAt = this.now().getTime();
    const cutoff = startedAt - graceSeconds * 1000;
    const changedSince = startedAt - GC_CHANGE_MARGIN_MS;
    // A dry run deletes nothing, so it neither claims nor marks anything.
    const marks = dryRun ? undefined : this.deps.deletions.run(randomUUID());
    if (marks && !(await marks.claim())) throw new GcInProgress();
    try {
      return await this.collectClaimed(app, request, actor, marks, { startedAt, cutoff, changedSince });
    } finally {
      await marks?.release().catch((err: unknown) => {
        log.warn({ err }, 'garbage collection could not release its claim; it lapses on its own');
      });
    }
  }

  private async collectClaimed(
    app: string,
    request: AssetGcRequest,
    actor: string,
    marks: DeletionMarks | undefined,
    times: { startedAt: number; cutoff: number; changedSince: number },
  ): Promise<AssetGcResponse> {
    const { store, objects, log, graceSeconds } = this.deps;
    const { keepPerTrack, dryRun } = request;
    const { startedAt, cutoff, changedSince } = times;

    // 1. What stays, decided in full before anything is deleted.
    const releases = await store.releases();
    const kept = releasesToKeep(releases, keepPerTrack);
    const referenced = new Set<string>();
    // Hashes of every app's kept assets: a bundle patch is shared by hash, whichever app queued it.
    const referencedHashes = new Set<string>();
    const reference = (rows: ReleaseAssetsRow[]) => {
      for (const row of rows) {
        for (const hash of row.hashes) {
          referenced.add(updateAssetKey(row.app, row.channel, row.runtimeVersion, hash));
          referencedHashes.add(hash);
        }
      }
    };
    const ownReleases = releases.filter((release) => release.app === app);
    reference(await store.assetsOf([...kept.keys()]));
    // What the first read saw of each release's rollout, to tell later changes from it.
    const seen = new Map(releases.map((release) => [release.id, release.rolloutUpdatedAt]));
    const referenceChanges = async (db?: Executor) => {
      const changed = (await store.changedSince(changedSince, db)).filter(
        (release) => !seen.has(release.id) || seen.get(release.id) !== release.rolloutUpdatedAt,
      );
      reference(changed);
    };

    const answer: AssetGcResponse = {
      dryRun,
      keepPerTrack,
      graceSeconds,
      // This app's figures only: another app's are none of its business.
      tracks: new Set(ownReleases.map((r) => `${r.channel}/${r.platform}/${r.runtimeVersion}`)).size,
      releases: ownReleases.length,
      releasesKept: ownReleases.filter((release) => kept.has(release.id)).length,
      kept: tally(),
      young: tally(),
      collected: { ...tally(), assets: 0, encodedForms: 0, patches: 0 },
      failed: tally(),
      sample: [],
    };
    // Asset keys that are still stored after this run: the encoded pass keeps their forms.
    const remaining = new Set<string>();
    // Unreferenced asset keys kept only because they are young.
    const youngAssets = new Set<string>();
    const limit = pLimit(GC_DELETE_CONCURRENCY);

    const deleteOne = async (object: ListedObject, kind: 'asset' | 'encoded') => {
      try {
        if (!dryRun) {
          // A run whose claim is running out leaves the rest to the next one (asset-deletions.ts).
          if (marks && !((await marks.keepClaim()) && marks.mayDelete())) {
            throw new Error('the collection claim is running out');
          }
          await objects.delete(object.key);
        }
      } catch (err) {
        log.warn({ err, key: object.key }, 'garbage collection could not delete an object; the next run tries again');
        add(answer.failed, object);
        if (kind === 'asset') remaining.add(object.key);
        return;
      }
      add(answer.collected, object);
      if (kind === 'asset') answer.collected.assets++;
      else answer.collected.encodedForms++;
      if (answer.sample.length < ASSET_GC_SAMPLE_SIZE) answer.sample.push(object.key);
    };
    const keep = (object: ListedObject) => {
      add(answer.kept, object);
      remaining.add(object.key);
    };

    /**
     * Deletes a batch of update assets. The last look at recent releases and the marks happen in
     * one step under the deletion lock; a publish that commits after it sees the marks.
     */
    const collectAssets = async (batch: ListedObject[]) => {
      if (batch.length === 0) return;
      const decide = async (db?: Executor) => {
        await referenceChanges(db);
        return batch.filter((object) => !referenced.has(object.key)).map((object) => object.key);
      };
      const marked = new Set(marks ? await marks.markPending(decide) : await decide());
      try {
        await Promise.all(
          batch.map((object) => limit(() => (marked.has(object.key) ? deleteOne(object, 'asset') : keep(object)))),
        );
      } finally {
        // Deleted or not, the marks end: a failed deletion left the object where it was.
        await marks?.markDone([...marked]);
      }
    };

    /** Deletes a batch of compressed forms; a missing form only costs a device the identity download. */
    const collectForms = async (batch: ListedObject[]) => {
      if (batch.length === 0) return;
      await referenceChanges();
      await Promise.all(
        batch.map((object) =>
          limit(async () => {
            const source = sourceOfEncodedForm(object.key) as string;
            if (referenced.has(source) || remaining.has(source)) return;
            await deleteOne(object, 'encoded');
          }),
        ),
      );
    };

    // 2. Update assets no kept release lists.
    let batch: ListedObject[] = [];
    for await (const object of listed(objects, updateAssetsPrefixOf(app), log)) {
      if (assetHashOfKey(object.key) === undefined) continue; // not an asset: never ours to delete
      if (referenced.has(object.key)) {
        add(answer.kept, object);
        remaining.add(object.key);
      } else if (object.lastModified.getTime() > cutoff) {
        add(answer.young, object);
        remaining.add(object.key);
        youngAssets.add(object.key);
      } else {
        batch.push(object);
        if (batch.length >= GC_BATCH_SIZE) {
          await collectAssets(batch);
          batch = [];
        }
      }
      if (marks && !(await marks.keepClaim())) throw new GcInProgress();
    }
    await collectAssets(batch);
    batch = [];

    // 3. Compressed forms whose asset was deleted above, or was already gone.
    for await (const object of listed(objects, 'encoded/', log)) {
      const source = sourceOfEncodedForm(object.key);
      // Another app's form is never this collection's to delete.
      if (source === undefined || appOfAssetKey(source) !== app || referenced.has(source)) continue;
      if (remaining.has(source)) {
        // The form of an asset the grace period keeps is kept with it, for the same reason.
        if (youngAssets.has(source)) add(answer.young, object);
        continue;
      }
      if (object.lastModified.getTime() > cutoff) {
        add(answer.young, object);
        continue;
      }
      batch.push(object);
      if (batch.length >= GC_BATCH_SIZE) {
        await collectForms(batch);
        batch = [];
      }
      if (marks && !(await marks.keepClaim())) throw new GcInProgress();
    }
    await collectForms(batch);

    // 4. Bundle patches whose base or target was deleted above, or was already gone. An embedded
    // bundle is registered by hand and never collected: patches from it live as long as their target.
    const stays = (key: string) => referenced.has(key) || remaining.has(key);
    const hashStays = (key: string) => {
      const hash = assetHashOfKey(key);
      return hash !== undefined && referencedHashes.has(hash);
    };
    // Patch objects decided on by their row: kept, or deleted (or, in a dry run, would be).
    const decidedPatches = new Set<string>();
    const deletePatch = async (key: string) => {
      const stored = await objects.head(key);
      if (!dryRun) await objects.delete(key);
      if (stored) add(answer.collected, { key, size: stored.size, lastModified: new Date(0) });
    };
    for (const row of (await this.deps.patches?.all()) ?? []) {
      // Patches to another app's bundles are that app's collection's to decide.
      if (appOfAssetKey(row.target_key) !== app) {
        if (row.patch_key) decidedPatches.add(row.patch_key);
        continue;
      }
      const targetStays = stays(row.target_key) || hashStays(row.target_key);
      const baseStays = isEmbeddedBundleKey(row.base_key) || stays(row.base_key) || hashStays(row.base_key);
      if (targetStays && baseStays) {
        if (row.patch_key) decidedPatches.add(row.patch_key);
        continue;
      }
      if (row.patch_key) decidedPatches.add(row.patch_key);
      try {
        if (row.patch_key) await deletePatch(row.patch_key);
        // After the object: a row left by a crash in between points at nothing, which serving
        // answers with the full bundle, and the next run forgets it.
        if (!dryRun) await this.deps.patches?.forget(row);
        answer.collected.patches++;
      } catch (err) {
        log.warn(
          { err, key: row.patch_key },
          'garbage collection could not delete a bundle patch; the next run tries again',
        );
      }
    }
    // Patch objects no row names: made by a maker whose row a collection had just forgotten.
    if (this.deps.patches) {
      for await (const object of listed(objects, 'patches/', log)) {
        if (decidedPatches.has(object.key) || object.lastModified.getTime() > cutoff) continue;
        try {
          await deletePatch(object.key);
          answer.collected.patches++;
        } catch (err) {
          log.warn(
            { err, key: object.key },
            'garbage collection could not delete a bundle patch; the next run tries again',
          );
        }
      }
    }

    if (!dryRun) {
      await store.audit(
        app,
        {
          actor,
          details: {
            keepPerTrack,
            graceSeconds,
            runId: request.runId ?? null,
            tracks: answer.tracks,
            releasesKept: answer.releasesKept,
            collected: answer.collected,
            failed: answer.failed,
          },
        },
        this.now(),
      );
    }
    log.info(
      {
        dryRun,
        keepPerTrack,
        collected: answer.collected,
        failed: answer.failed,
        young: answer.young,
        ms: this.now().getTime() - startedAt,
      },
      dryRun ? 'asset garbage collection (dry run)' : 'asset garbage collection',
    );
    return answer;
  }
}

/** A listing whose failures (the object store is unreachable) answer 503, not 500. */
async function* listed(objects: ObjectStore, prefix: string, log: FastifyBaseLogger): AsyncGenerator<ListedObject> {
  const iterator = objects.list(prefix)[Symbol.asyncIterator]();
  while (true) {
    let next: IteratorResult<ListedObject>;
    try {
      next = await iterator.next();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      log.warn({ err: error, prefix }, 'garbage collection could not list the object store');
      throw new DependencyUnavailable('object storage');
    }
    if (next.done) return;
    yield next.value;
  }
}
