import v8 from 'node:v8';

/**
 * Prepares V8 for a serving process, once, before the server allocates anything it serves with:
 * allocation-site pretenuring off.
 *
 * V8 watches how many objects of each allocation site survive young-generation collections and,
 * past a threshold, allocates that site's objects straight in the old generation. A request's
 * objects (Node's request, response and header objects) live for about a millisecond, but in some
 * process starts the feedback of the first moments (the start-up load of every track) marked their
 * sites long-lived: every request then filled the old generation, and the process ran full
 * mark-compacts several times a second for as long as it lived. Whether a start goes that way is
 * chance; `npm run bench:server-starts` starts the server many times with and without this.
 */
export function tuneHeapForServing(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
