import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const child = fileURLToPath(new URL('./support/tick-object-shape-child.ts', import.meta.url));
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * What ferry-server does before it serves (keepTickObjectShape) holds on every Node: every nextTick
 * record keeps one map however full `{}` gets. Whether this Node's V8 has the hazard without it is
 * a diagnostic, not a test (`npm run diagnose:tick-shape`): a V8 that fixes it must not fail the suite.
 */
it('with keepTickObjectShape, every nextTick record keeps the one map, however full `{}` gets', async () => {
  const { stdout } = await run(
    process.execPath,
    ['--allow-natives-syntax', '--expose-gc', '--conditions=@ferry/source', '--import', 'tsx', child, 'keep'],
    { cwd: repoRoot },
  );
  expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ sameMap: true, keptObjects: 3000 });
});
