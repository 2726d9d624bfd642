/**
 * diagnose:tick-shape — does this Node's V8 have the nextTick map hazard that keepTickObjectShape
 * (src/serving-heap.ts) avoids? Runs test/support/tick-object-shape-child.ts without the workaround
 * and with it, each in a Node of its own, and prints whether every record kept one map. Node 22's
 * and 24's V8 lose it without the workaround; a V8 that keeps it makes the workaround cost one record.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const child = fileURLToPath(new URL('../test/support/tick-object-shape-child.ts', import.meta.url));
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

for (const mode of ['plain', 'keep'] as const) {
  const stdout = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '--expose-gc', '--conditions=@ferry/source', '--import', 'tsx', child, mode],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  const { sameMap } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { sameMap: boolean };
  console.log(
    `Node ${process.version}, ${mode === 'keep' ? 'with' : 'without'} keepTickObjectShape: ${sameMap ? 'one map for every record' : 'a map per record (the hazard)'}`,
  );
}
