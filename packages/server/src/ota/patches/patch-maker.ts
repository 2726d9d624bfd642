import { type ChildProcess, fork } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { AssetEncodings } from '../../storage/objects/asset-encodings.js';
import { isCompressible } from '../../storage/objects/asset-encodings.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import { inTemporaryDirectory } from './bsdiff.js';
import { type KyselyPatchStore, type PatchRow, patchKey } from './kysely-patch-store.js';
import type { PatchChildRequest, PatchChildResult } from './patch-child.js';
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

/**
 * The child process's entry: the built JavaScript beside this file, or, when the server runs from
 * its TypeScript sources (tests, the checkout), the source through tsx.
 */
const PATCH_CHILD = import.meta.url.endsWith('.ts')
  ? {
      file: fileURLToPath(new URL('./patch-child.ts', import.meta.url)),
      execArgv: ['--conditions=@ferry/source', '--import', createRequire(import.meta.url).resolve('tsx')],
    }
  : { file: fileURLToPath(new URL('./patch-child.js', import.meta.url)), execArgv: [] };

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
 * Makes queued bundle patches, one at a time per instance, off the request path: the bundles are
 * streamed to a temporary directory, and the diff, the check and the hashes run in a child process
 * at the lowest CPU priority (patch-child.ts), so neither the event loop, nor the heap's
 * collections, nor the cores the server answers devices with pay for them. Each patch is claimed in the
 * database first, so two instances never make the same one; a claim of a process that died is
 * taken over (kysely-patch-store.ts, claimNext). A patch is stored and offered only once applying it
 * to its base gave the target's exact bytes.
 */
export class PatchMaker {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  /** The patch process under way, if any: a stopping server ends it rather than wait for it. */
  private child: ChildProcess | undefined;

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

  /**
   * Stops taking work, ends the patch process under way (its claim is given back, and another
   * instance or the next start makes it), and waits until nothing runs.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.child?.kill();
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
      if (this.stopped) {
        // Ended by stop(): the next start, or another instance, makes it at once.
        log.info(
          { base: row.base_hash, target: row.target_hash },
          'bundle patch left for later: the server is stopping',
        );
        await store.giveBack(row, holder, 0).catch(() => undefined);
      } else {
        log.warn(
          { err, base: row.base_hash, target: row.target_hash },
          'could not make a bundle patch; it is tried again',
        );
        await store.giveBack(row, holder, PATCH_RETRY_AFTER_MS).catch(() => undefined);
      }
    } finally {
      clearInterval(renewal);
    }
  }

  private async make(row: PatchRow): Promise<Outcome> {
    const { objects, encodings, log, maxRatio } = this.options;
    return inTemporaryDirectory(async (dir) => {
      const [base, target] = await Promise.all([objects.get(row.base_key), objects.get(row.target_key)]);
      // Collected since it was queued (garbage collection keeps the newest releases only): there is
      // nothing to make, and no device runs a bundle no release keeps.
      if (!base || !target) {
        base?.body.destroy();
        target?.body.destroy();
        return { state: 'gone' };
      }
      // Streamed to files: the bundles never sit whole in the server's heap.
      await Promise.all([
        pipeline(base.body, createWriteStream(path.join(dir, 'base'))),
        pipeline(target.body, createWriteStream(path.join(dir, 'target'))),
      ]);
      const form = isCompressible(target) ? await encodings.find(row.target_key, target, 'br') : undefined;
      const made = await this.inChild({ dir, brotli: isCompressible(target) && !form });
      const fullSize = form?.size ?? made.brotliBytes ?? target.size;
      if (made.baseHash !== row.base_hash || made.targetHash !== row.target_hash) {
        log.warn(
          { base: row.base_key, target: row.target_key },
          'a stored bundle does not have the hash it is stored under',
        );
        return { state: 'failed' };
      }
      if (made.appliedHash !== row.target_hash) {
        log.warn(
          { base: row.base_hash, target: row.target_hash },
          'a bundle patch did not give its target; it is not offered',
        );
        return { state: 'failed', size: made.patchBytes, fullSize };
      }
      const state = patchVerdict(made.patchBytes, fullSize, maxRatio);
      if (state === 'larger') return { state, size: made.patchBytes, fullSize };
      const key = patchKey(row.base_hash, row.target_hash);
      await objects.put(key, await readFile(path.join(dir, 'patch')), { contentType: 'application/octet-stream' });
      return { state, patchKey: key, size: made.patchBytes, fullSize };
    });
  }

  /** Runs patch-child.ts on a prepared directory, at the lowest CPU priority. */
  private inChild(request: PatchChildRequest): Promise<PatchChildResult> {
    return new Promise((resolve, reject) => {
      const child = fork(PATCH_CHILD.file, [], {
        execArgv: PATCH_CHILD.execArgv,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      this.child = child;
      try {
        // The devices' requests come first: the diff takes whatever CPU they leave.
        if (child.pid !== undefined) os.setPriority(child.pid, os.constants.priority.PRIORITY_LOW);
      } catch {
        // Not permitted on this host: it runs at the server's priority.
      }
      let answered = false;
      child.once('message', (message: { ok: true; result: PatchChildResult } | { ok: false; message: string }) => {
        answered = true;
        if (message.ok) resolve(message.result);
        else reject(new Error(`the patch process failed: ${message.message}`));
      });
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = undefined;
        if (!answered) reject(new Error(`the patch process ended without an answer (${signal ?? `exit ${code}`})`));
      });
      child.send(request);
    });
  }
}
