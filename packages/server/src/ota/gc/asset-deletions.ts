import os from 'node:os';
import type { Database } from '../../storage/database.js';
import type { Engine } from '../../storage/engine.js';
import { type Executor, holdShared, withExclusiveLock } from '../../storage/locked-transaction.js';

/**
 * The lock between a garbage collection deciding what to delete and a publish committing a release
 * that lists stored assets. A collection holds it exclusively while it re-reads recent releases and
 * marks what it will delete; a publish holds it shared while it checks those marks and commits.
 */
export const ASSET_DELETION_LOCK = 'ferry:asset-deletions';

/** Keys per query: far below either engine's parameter limit. */
const KEY_BATCH = 500;

/**
 * How long a collection's claim lasts unless it renews it. A collection renews it when a third is
 * used, and stops deleting once less than CLAIM_MARGIN_MS of it is left, so a deletion is never
 * under way when another instance takes the lapsed claim over.
 */
export const CLAIM_TTL_MS = 60 * 1000;
/** What a collection leaves of its claim unused, and what a takeover waits past its end: clock skew and one deletion in flight. */
export const CLAIM_MARGIN_MS = 15 * 1000;

/** This process, as a claim names its holder. */
export const THIS_PROCESS = `${os.hostname()}:${process.pid}`;

/**
 * Whether the holder of a claim may still be running: always, unless it is a process of this host
 * that no longer exists (a crash, kill -9). Then its claim can be taken over at once instead of at
 * its end. A reused process id only makes the takeover wait for the claim to lapse.
 */
export function holderMayRun(holder: string): boolean {
  const separator = holder.lastIndexOf(':');
  const pid = Number(holder.slice(separator + 1));
  if (holder.slice(0, separator) !== os.hostname() || !Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

const CLAIM = 'assets';

/** What a publisher compares with: the highest version written so far (0 when none). */
export async function deletionVersion(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('asset_deletions')
    .select((eb) => eb.fn.max('version').as('version'))
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * The keys among `keys` that a collection is deleting, or began or finished deleting after the
 * publisher read `since` (deletionVersion, read before it looked the assets up in object storage).
 * Such a key may be gone, or about to go, although the lookup found it. Called in the publish's
 * transaction, it holds ASSET_DELETION_LOCK shared until that transaction ends: a collection that
 * has not yet marked a key then waits, and sees the committed release when it re-reads.
 */
export async function keysCollectedSince(
  db: Executor,
  engine: Engine,
  keys: readonly string[],
  since: number,
): Promise<string[]> {
  await holdShared(db, engine, ASSET_DELETION_LOCK);
  const found: string[] = [];
  const unique = [...new Set(keys)];
  for (let start = 0; start < unique.length; start += KEY_BATCH) {
    const rows = await db
      .selectFrom('asset_deletions')
      .select('key')
      .where('key', 'in', unique.slice(start, start + KEY_BATCH))
      .where((eb) => eb.or([eb('pending', '=', 1), eb('version', '>', since)]))
      .execute();
    for (const row of rows) found.push(row.key);
  }
  return found;
}

/** The deletion marks of one collection run (the exclusive side of ASSET_DELETION_LOCK). */
export interface DeletionMarks {
  /** The run's claim: false when another live collection holds it. */
  claim(): Promise<boolean>;
  /**
   * In one transaction holding the lock exclusively: renews the claim, runs `decide` (which may read
   * releases on the same transaction) and marks the keys it returns as pending deletion.
   */
  markPending(decide: (db: Executor) => Promise<string[]>): Promise<string[]>;
  /** The deletions of these keys are over (done or given up): they stop blocking publishes. */
  markDone(keys: readonly string[]): Promise<void>;
  /** Renews the claim when a third of it is used; false when it was lost. */
  keepClaim(): Promise<boolean>;
  /** Whether this run may still delete: its claim has more than CLAIM_MARGIN_MS left. */
  mayDelete(): boolean;
  release(): Promise<void>;
}

export interface AssetDeletionsOptions {
  now?: () => number;
  /** Who holds the claims this makes (THIS_PROCESS unless a test stands in for another process). */
  holder?: string;
}

/**
 * Marks of deletions by garbage collection (migration 018), for both engines. Every write happens
 * under ASSET_DELETION_LOCK, and raises `version` above every version written before.
 */
export class AssetDeletions {
  private readonly now: () => number;
  private readonly holder: string;
  constructor(
    private readonly database: Database,
    options: AssetDeletionsOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.holder = options.holder ?? THIS_PROCESS;
  }

  /** The highest version written so far: what a publisher reads before it looks its assets up. */
  deletionVersion(): Promise<number> {
    return deletionVersion(this.database.db);
  }

  private exclusively<T>(work: (db: Executor) => Promise<T>): Promise<T> {
    return withExclusiveLock(this.database, ASSET_DELETION_LOCK, work);
  }

  private async write(db: Executor, keys: readonly string[], pending: boolean, runId: string): Promise<void> {
    if (keys.length === 0) return;
    const version = (await deletionVersion(db)) + 1;
    const updatedAt = this.now();
    const unique = [...new Set(keys)];
    for (let start = 0; start < unique.length; start += KEY_BATCH) {
      await db
        .insertInto('asset_deletions')
        .values(
          unique
            .slice(start, start + KEY_BATCH)
            .map((key) => ({ key, version, pending: pending ? 1 : 0, run_id: runId, updated_at: updatedAt })),
        )
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet((eb) => ({
            version: eb.ref('excluded.version'),
            pending: eb.ref('excluded.pending'),
            run_id: eb.ref('excluded.run_id'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
  }

  /**
   * Ends the pending marks of collections that stopped without ending them (a crash, kill -9), once
   * no collection holds a live claim: none of them deletes anything any more, so object storage now
   * says what is there. Their versions rise, so a publisher that looked before still refuses them.
   */
  async endInterrupted(): Promise<void> {
    await this.exclusively(async (db) => {
      if (!(await this.liveClaim(db))) await this.endPending(db, 'interrupted');
    });
  }

  private async endPending(db: Executor, runId: string): Promise<void> {
    const stale = await db.selectFrom('asset_deletions').select('key').where('pending', '=', 1).execute();
    await this.write(
      db,
      stale.map((row) => row.key),
      false,
      runId,
    );
  }

  /** The keys among `keys` marked pending now (a collection is deleting them, or stopped while it did). */
  async pendingAmong(keys: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    const unique = [...new Set(keys)];
    for (let start = 0; start < unique.length; start += KEY_BATCH) {
      const rows = await this.database.db
        .selectFrom('asset_deletions')
        .select('key')
        .where('key', 'in', unique.slice(start, start + KEY_BATCH))
        .where('pending', '=', 1)
        .execute();
      for (const row of rows) found.add(row.key);
    }
    return found;
  }

  /** When the live claim of a collection lapses, in ms; undefined when none is live. */
  async claimedUntil(): Promise<number | undefined> {
    return this.liveClaim(this.database.db);
  }

  private async liveClaim(db: Executor): Promise<number | undefined> {
    const row = await db
      .selectFrom('gc_claims')
      .select(['expires_at', 'holder'])
      .where('name', '=', CLAIM)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const until = Number(row.expires_at);
    return until + CLAIM_MARGIN_MS > this.now() && holderMayRun(row.holder) ? until : undefined;
  }

  /** Removes marks that ended long ago, keeping the highest version (publishers compare with it). */
  private async prune(db: Executor, before: number): Promise<void> {
    const highest = await deletionVersion(db);
    await db
      .deleteFrom('asset_deletions')
      .where('pending', '=', 0)
      .where('updated_at', '<', before)
      .where('version', '<', highest)
      .execute();
  }

  /** The marks of a new collection run. */
  run(runId: string): DeletionMarks {
    let claimedUntil = 0;
    let renewedAt = 0;
    let renewing: Promise<boolean> | undefined;
    const renew = async (db: Executor): Promise<boolean> => {
      const row = await db
        .selectFrom('gc_claims')
        .select(['run_id', 'expires_at'])
        .where('name', '=', CLAIM)
        .executeTakeFirst();
      if (row && row.run_id !== runId) return false;
      const now = this.now();
      claimedUntil = now + CLAIM_TTL_MS;
      renewedAt = now;
      await db
        .insertInto('gc_claims')
        .values({ name: CLAIM, run_id: runId, holder: this.holder, expires_at: claimedUntil })
        .onConflict((conflict) =>
          conflict.column('name').doUpdateSet({ run_id: runId, holder: this.holder, expires_at: claimedUntil }),
        )
        .execute();
      return true;
    };
    const lost = () => new Error('the garbage collection lost its claim');
    return {
      claim: () =>
        this.exclusively(async (db) => {
          if (await this.liveClaim(db)) return false;
          await db.deleteFrom('gc_claims').where('name', '=', CLAIM).execute();
          await renew(db);
          // Marks of runs that stopped half-way end now: this run is the only one deleting.
          await this.endPending(db, runId);
          await this.prune(db, this.now() - 24 * 3600 * 1000);
          return true;
        }),
      markPending: (decide) =>
        this.exclusively(async (db) => {
          if (!(await renew(db))) throw lost();
          const keys = await decide(db);
          await this.write(db, keys, true, runId);
          return keys;
        }),
      markDone: (keys) => this.exclusively((db) => this.write(db, keys, false, runId)),
      keepClaim: () => {
        if (this.now() - renewedAt < CLAIM_TTL_MS / 3) return Promise.resolve(true);
        // One renewal at a time: deletions in flight ask together.
        renewing ??= this.exclusively(renew).finally(() => {
          renewing = undefined;
        });
        return renewing;
      },
      mayDelete: () => this.now() < claimedUntil - CLAIM_MARGIN_MS,
      release: async () => {
        await this.database.db.deleteFrom('gc_claims').where('name', '=', CLAIM).where('run_id', '=', runId).execute();
      },
    };
  }
}
