/**
 * Child of test/serving-heap.test.ts, run by Node with --allow-natives-syntax and --expose-gc: lets
 * a major collection run while no nextTick record is alive, fills the transitions of `{}`'s map the
 * way a busy server's libraries do (objects built key by key, each with a key of its own, kept
 * alive), and prints whether two nextTick records made afterwards share a hidden class.
 * Argument: `keep` runs keepTickObjectShape first (as ferry-server does), `plain` does not.
 */
import { createHook } from 'node:async_hooks';
import { keepTickObjectShape } from '../../src/serving-heap.js';

// V8 natives are not JavaScript syntax a compiler accepts; the function is made at run time.
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

if (process.argv[2] === 'keep') keepTickObjectShape();
// The records made so far (module loading makes many) have run: none is alive during the collection.
await new Promise((resolve) => setImmediate(resolve));
gc();

const kept: object[] = [];
for (let i = 0; i < 3000; i++) {
  const built: Record<string, number> = {};
  built[`key${i}`] = i;
  kept.push(built);
}

const records: object[] = [];
const hook = createHook({
  init(_asyncId, type, _triggerAsyncId, resource) {
    if (type === 'TickObject') records.push(resource);
  },
});
hook.enable();
process.nextTick(() => {});
process.nextTick(() => {});
hook.disable();
const [first, second] = records;
if (!first || !second) throw new Error('no nextTick records were seen');
process.stdout.write(`${JSON.stringify({ sameMap: haveSameMap(first, second), keptObjects: kept.length })}\n`);
