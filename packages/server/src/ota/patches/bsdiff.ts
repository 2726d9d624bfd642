import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

interface BsdiffNode {
  diff(oldFile: string, newFile: string, patchFile: string): Promise<void>;
  patch(oldFile: string, newFile: string, patchFile: string): Promise<void>;
}

/**
 * bsdiff-node: the classic bsdiff/bspatch C code (BSDIFF40, bzip2 blocks, the format expo-updates'
 * bspatch.c applies) built as a native addon, working on files. Loaded on first use: a process
 * that never makes a patch never loads it. The server makes patches in a child process of its own
 * (patch-child.ts), never in its own process.
 */
let addon: BsdiffNode | undefined;
const bsdiffNode = (): BsdiffNode => {
  addon ??= createRequire(import.meta.url)('bsdiff-node') as BsdiffNode;
  return addon;
};

/** Writes to `patchFile` a BSDIFF40 patch that turns `baseFile` into `targetFile`. */
export const diffFiles = (baseFile: string, targetFile: string, patchFile: string): Promise<void> =>
  bsdiffNode().diff(baseFile, targetFile, patchFile);

/** Writes to `resultFile` what `patchFile` makes of `baseFile`. */
export const patchFiles = (baseFile: string, resultFile: string, patchFile: string): Promise<void> =>
  bsdiffNode().patch(baseFile, resultFile, patchFile);

/** Runs `work` with a private temporary directory, removed afterwards whatever happens. */
export async function inTemporaryDirectory<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ferry-patch-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes `inputs` as files of a temporary directory, runs `run` on their paths and reads `output`. */
const throughFiles = (
  inputs: Record<string, Buffer>,
  output: string,
  run: (file: (name: string) => string) => Promise<void>,
): Promise<Buffer> =>
  inTemporaryDirectory(async (dir) => {
    const file = (name: string) => path.join(dir, name);
    await Promise.all(Object.entries(inputs).map(([name, bytes]) => writeFile(file(name), bytes)));
    await run(file);
    return readFile(file(output));
  });

/** A BSDIFF40 patch that turns `base` into `target` (buffers: tests and benchmarks). */
export const makePatch = (base: Buffer, target: Buffer): Promise<Buffer> =>
  throughFiles({ base, target }, 'patch', (file) => diffFiles(file('base'), file('target'), file('patch')));

/** `base` with a BSDIFF40 patch applied (buffers: tests and benchmarks). */
export const applyPatch = (base: Buffer, patch: Buffer): Promise<Buffer> =>
  throughFiles({ base, patch }, 'result', (file) => patchFiles(file('base'), file('result'), file('patch')));
