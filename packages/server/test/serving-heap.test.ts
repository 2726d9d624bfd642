import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const child = fileURLToPath(new URL('./support/tick-object-shape-child.ts', import.meta.url));
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Runs the child in a Node of its own (V8 natives on) and returns what it printed. */
async function tickObjects(mode: 'keep' | 'plain'): Promise<{ sameMap: boolean; keptObjects: number }> {
  const { stdout } = await run(
    process.execPath,
    ['--allow-natives-syntax', '--expose-gc', '--conditions=@ferry/source', '--import', 'tsx', child, mode],
    { cwd: repoRoot },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { sameMap: boolean; keptObjects: number };
}

/** Node 26's V8 keeps the record's map without help: the hazard is that of Node 22's and 24's. */
const hazardFixedInV8 = Number(process.versions.node.split('.')[0]) >= 26;
if (hazardFixedInV8) console.warn(`serving-heap: Node ${process.version}'s V8 has no nextTick map hazard to show`);

describe('keepTickObjectShape (what ferry-server does before it serves)', () => {
  it.skipIf(hazardFixedInV8)(
    "without it, after a collection with no record alive and once `{}` has too many transitions, each nextTick record gets a map of its own (the hazard of Node 22's and 24's V8)",
    async () => {
      expect(await tickObjects('plain')).toEqual({ sameMap: false, keptObjects: 3000 });
    },
  );

  it('with it, every nextTick record keeps the one map, however full `{}` gets', async () => {
    expect(await tickObjects('keep')).toEqual({ sameMap: true, keptObjects: 3000 });
  });
});
