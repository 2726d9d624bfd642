import v8 from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring for a serving process. V8 watches how many objects of
 * each allocation site survive young-generation collections and, past a threshold, allocates that
 * site's objects straight in the old generation. A manifest request's objects (Node's request,
 * response and header objects) live for about a millisecond, but in some process starts the
 * feedback of the first moments marked their sites long-lived: every request then filled the old
 * generation, which needed a full mark-compact several times a second. In 3 of 8 starts of the
 * same server on the same data, one track then ran at 30,000–35,000 req/s instead of 49,000–51,000,
 * with 5–8 mark-compacts per 6 s instead of none; with pretenuring off, 0 of 8 (docs/benchmarks.md).
 * Set before the server allocates anything it serves with; flags V8 reads at collection time apply
 * from then on.
 */
export function tuneHeapForServing(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
