import type { FastifyBaseLogger } from 'fastify';
import type { AssetEncodings } from '../../storage/objects/asset-encodings.js';
import { compress, isCompressible } from '../../storage/objects/asset-encodings.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import { applyPatch, makePatch } from './bsdiff.js';
import { type KyselyPatchStore, type PatchRow, patchKey } from './kysely-patch-store.js';
import { patchVerdict } from './patch-verdict.js';

/**
 * A claim lasts this long unless renewed; while a patch is made it is renewed every third of it.
 * Another host's instance takes over a crashed one's claim once it lapses; on the same host at once.
 */
export const PATCH_LEASE_MS = 60_000;
/** How long a patch whose making failed waits before it is tried again (PATCH_MAX_ATTEMPTS in all). */
export const PATCH_RETRY_AFTER_MS = 30_000;
/** How often an instance looks for queued patches nobody woke it for (another instance's, a lapsed claim). */
export const PATCH_POLL_MS = 5_000;

/** SHA-256 as asset hashes are written, computed on the thread pool (WebCrypto), not the event loop. */
export async function sha256Base64Url(bytes: Uint8Array): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)).toString('base64url');
}

export interface PatchMakerOptions {
  store: Pick<KyselyPatchStore, 'claimNext' | 'renew' | 'finish' | 'giveBack' | 'forgetClaimed'>;
  objects: ObjectStore;
  encodings: Pick<AssetEncodings, 'find'>;
  log: FastifyBaseLogger;
  /** `<hostname>:<pid>`: what a claim names as its holder. */
  holder: string;
  /** How long a claim lasts unless renewed (it is renewed every third of it while the patch is made). */
  leaseMs: number;
  /** A patch is offered only up to this fraction of the brotli full bundle (PATCH_MAX_RATIO). */
  maxRatio: number;
  /** How often queued work is looked for without being woken (other instances' publishes, expired claims). */
  pollMs: number;
  /** Counts patches made, by what became of them. */
  made?: (state: 'ready' | 'larger' | 'failed') => void;
}

type Outcome =
  | { state: 'ready' | 'larger' | 'failed'; patchKey?: string; size?: number; fullSize?: number }
  | { state: 'gone' };

/**
 * Makes queued bundle patches, one at a time per instance, off the request path: the diff and the
 * check run on libuv's thread pool (bsdiff.ts), hashes on WebCrypto's. Each patch is claimed in the
 * database first, so two instances never make the same one; a claim of a process that died is
 * taken over (kysely-patch-store.ts, claimNext). A patch is stored and offered only once applying it
 * to its base gave the target's exact bytes.
 */
export class PatchMaker {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: PatchMakerOptions) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks for queued work now (a publish on this instance just queued some). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Stops taking work and waits for the patch under way, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    const { store, holder, leaseMs, log } = this.options;
    while (!this.stopped) {
      let row: PatchRow | undefined;
      try {
        row = await store.claimNext(holder, leaseMs);
      } catch (err) {
        log.warn({ err }, 'could not look for bundle patches to make; trying again later');
        return;
      }
      if (!row) return;
      await this.makeClaimed(row);
    }
  }

  private async makeClaimed(row: PatchRow): Promise<void> {
    const { store, holder, leaseMs, log } = this.options;
    const renewal = setInterval(() => {
      store
        .renew(row, holder, leaseMs)
        .catch((err: unknown) => log.warn({ err }, 'could not renew a bundle patch claim'));
    }, leaseMs / 3);
    const started = performance.now();
    try {
      const outcome = await this.make(row);
      const kept =
        outcome.state === 'gone' ? await store.forgetClaimed(row, holder) : await store.finish(row, holder, outcome);
      if (outcome.state !== 'gone') this.options.made?.(outcome.state);
      log.info(
        {
          base: row.base_hash,
          target: row.target_hash,
          state: outcome.state,
          bytes: 'size' in outcome ? outcome.size : undefined,
          fullBytes: 'fullSize' in outcome ? outcome.fullSize : undefined,
          ms: Math.round(performance.now() - started),
          kept,
        },
        'bundle patch made',
      );
    } catch (err) {
      log.warn(
        { err, base: row.base_hash, target: row.target_hash },
        'could not make a bundle patch; it is tried again',
      );
      await store.giveBack(row, holder, PATCH_RETRY_AFTER_MS).catch(() => undefined);
    } finally {
      clearInterval(renewal);
    }
  }

  private async make(row: PatchRow): Promise<Outcome> {
    const { objects, log, maxRatio } = this.options;
    const [base, target] = await Promise.all([objects.read(row.base_key), objects.read(row.target_key)]);
    // Collected since it was queued (garbage collection keeps the newest releases only): there is
    // nothing to make, and no device runs a bundle no release keeps.
    if (!base || !target) return { state: 'gone' };
    const [baseHash, targetHash] = await Promise.all([sha256Base64Url(base.bytes), sha256Base64Url(target.bytes)]);
    if (baseHash !== row.base_hash || targetHash !== row.target_hash) {
      log.warn(
        { base: row.base_key, target: row.target_key },
        'a stored bundle does not have the hash it is stored under',
      );
      return { state: 'failed' };
    }
    const fullSize = await this.fullSize(row.target_key, target);
    const patch = await makePatch(base.bytes, target.bytes);
    // What a device will do with it: apply it to the base and compare the result with the manifest's hash.
    const applied = await applyPatch(base.bytes, patch);
    if ((await sha256Base64Url(applied)) !== row.target_hash) {
      log.warn(
        { base: row.base_hash, target: row.target_hash },
        'a bundle patch did not give its target; it is not offered',
      );
      return { state: 'failed', size: patch.length, fullSize };
    }
    const state = patchVerdict(patch.length, fullSize, maxRatio);
    if (state === 'larger') return { state, size: patch.length, fullSize };
    const key = patchKey(row.base_hash, row.target_hash);
    await objects.put(key, patch, { contentType: 'application/octet-stream' });
    return { state, patchKey: key, size: patch.length, fullSize };
  }

  /** The bytes a full download of the target sends: its stored brotli form, else its brotli size now. */
  private async fullSize(
    key: string,
    target: { bytes: Buffer; size: number; contentType: string; etag: string; key: string },
  ): Promise<number> {
    if (!isCompressible(target)) return target.size;
    const form = await this.options.encodings.find(key, target, 'br');
    return form ? form.size : (await compress(target.bytes, 'br')).length;
  }
}
