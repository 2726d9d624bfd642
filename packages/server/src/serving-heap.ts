import { createHook } from 'node:async_hooks';
import v8 from 'node:v8';

/**
 * Prepares V8 for a serving process: done once, before the server allocates anything it serves
 * with. Two things, each of which slowed every request of a process for the rest of its life:
 *
 * 1. Allocation-site pretenuring off. V8 watches how many objects of each allocation site survive
 *    young-generation collections and, past a threshold, allocates that site's objects straight in
 *    the old generation. A manifest request's objects (Node's request, response and header objects)
 *    live for about a millisecond, but in some process starts the feedback of the first moments
 *    marked their sites long-lived: every request then filled the old generation, which needed a
 *    full mark-compact several times a second. Flags V8 reads at collection time apply from then on.
 *    Whether a start goes that way is chance: `npm run bench:server-starts` starts many.
 * 2. The shape of Node's process.nextTick record kept alive (keepTickObjectShape).
 */
export function tuneHeapForServing(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
  keepTickObjectShape();
}

/** One of Node's own nextTick records, held for the life of the process (keepTickObjectShape). */
let tickObjectShape: object | undefined;

/**
 * Keeps one record of `process.nextTick` alive for the life of the process, so that every later
 * record gets the same hidden class (map) as this one.
 *
 * Node makes each record with an object literal whose first keys are symbols; its map is reached
 * from the map of `{}` through transitions that V8 holds weakly. When a major collection runs while
 * no record is alive, those maps die, and the next record needs a new one, which the literal's
 * inline cache has not seen; and if `{}` has 1,536 transitions by then (V8's limit; each object
 * built key by key from `{}` with a first key not seen before adds one, until a collection finds it
 * dead), the new map cannot be linked at all, and every record makes a map of its own. Either way
 * V8 then builds records in its runtime, and a manifest answer makes several: an instance that
 * has published many releases (each built objects key by key) slows on every request. A living
 * record keeps its maps, and with them the transitions.
 *
 * The record is caught by an async hook that is on only for the one nextTick made here; a hook
 * left on would cost every asynchronous operation. The V8 of Node 26 keeps the map without it
 * (`npm run diagnose:tick-shape` shows whether this Node has the hazard); there it costs one record.
 */
export function keepTickObjectShape(): void {
  if (tickObjectShape) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') tickObjectShape ??= resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
}
