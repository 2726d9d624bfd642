import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A tmpfs of a few pages' worth, mounted for a test that needs a disk that fills up. */
export interface SmallTmpfs {
  dir: string;
  /** Bytes a new file can still take (statfs: available blocks × block size). */
  free(): number;
  /**
   * Fills the file system until exactly `leave` bytes (rounded down to whole blocks) remain, with
   * files named `filler-*` in `dir`. Returns a function that removes them again.
   */
  fillLeaving(leave: number): () => void;
  unmount(): void;
}

const CHUNK = 64 * 1024;

/**
 * Mounts a tmpfs of `sizeBytes` on `dir` (created if needed). Returns undefined with a printed
 * reason where mounting is not permitted (not root, no CAP_SYS_ADMIN), except under CI=true, where
 * it throws: CI must run these tests.
 */
export function mountSmallTmpfs(dir: string, sizeBytes: number): SmallTmpfs | undefined {
  fs.mkdirSync(dir, { recursive: true });
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    const reason = (mounted.stderr || mounted.error?.message || `mount exited with ${mounted.status}`).trim();
    if (process.env.CI === 'true') throw new Error(`a small tmpfs is required in CI but cannot be mounted: ${reason}`);
    process.stderr.write(`[ferry tests] skipping the full-disk tests: cannot mount a tmpfs (${reason})\n`);
    return undefined;
  }
  const free = () => {
    const stats = fs.statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  let fillers = 0;
  return {
    dir,
    free,
    fillLeaving(leave) {
      const made: string[] = [];
      const chunk = Buffer.alloc(CHUNK, 1);
      const block = fs.statfsSync(dir).bsize;
      const target = Math.floor(leave / block) * block;
      // Whole blocks only (free space is counted in them), at most a chunk per file.
      for (let amount = free() - target; amount > 0; amount = free() - target) {
        const file = path.join(dir, `filler-${fillers++}`);
        fs.writeFileSync(file, chunk.subarray(0, Math.min(CHUNK, amount)));
        made.push(file);
      }
      return () => {
        for (const file of made) fs.rmSync(file, { force: true });
      };
    },
    unmount() {
      const result = spawnSync('umount', [dir], { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`umount ${dir} failed: ${result.stderr}`);
    },
  };
}
