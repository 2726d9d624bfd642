import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { brotliOptions } from '../../storage/objects/brotli-options.js';
import { diffFiles, patchFiles } from './bsdiff.js';

/**
 * The child process that makes one bundle patch (patch-maker.ts forks it at the lowest CPU
 * priority): everything heavy happens here, so the server's event loop, heap and cores stay with
 * the devices it serves, and a crash of the native diff kills this process, not the server.
 *
 * In: one message `{ dir, brotli }`, where `dir` holds `base` and `target`. Out: one message,
 * `PatchChildResult`, after `dir/patch` is written; then it exits. It exits too when the server
 * goes away (the IPC channel closes).
 */
export interface PatchChildRequest {
  dir: string;
  /** Whether to measure the target's brotli size (the server has no stored brotli form of it). */
  brotli: boolean;
}

export interface PatchChildResult {
  baseHash: string;
  targetHash: string;
  /** The hash of the base with the patch applied: the target's when the patch checks out. */
  appliedHash: string;
  patchBytes: number;
  brotliBytes?: number;
}

const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('base64url');

async function make({ dir, brotli }: PatchChildRequest): Promise<PatchChildResult> {
  const [base, target, patch, applied] = ['base', 'target', 'patch', 'applied'].map((name) => path.join(dir, name)) as [
    string,
    string,
    string,
    string,
  ];
  await diffFiles(base, target, patch);
  // What a device does with it: apply it to the base, then compare with the manifest's hash.
  await patchFiles(base, applied, patch);
  return {
    baseHash: hashOf(base),
    targetHash: hashOf(target),
    appliedHash: hashOf(applied),
    patchBytes: statSync(patch).size,
    ...(brotli
      ? {
          brotliBytes: zlib.brotliCompressSync(readFileSync(target), brotliOptions(statSync(target).size)).length,
        }
      : {}),
  };
}

process.on('disconnect', () => process.exit(0));
process.once('message', (request: PatchChildRequest) => {
  make(request).then(
    (result) => process.send?.({ ok: true, result }, () => process.exit(0)),
    (error: unknown) => process.send?.({ ok: false, message: String(error) }, () => process.exit(1)),
  );
});
