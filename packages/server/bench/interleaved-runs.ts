/**
 * Runs that a ratio compares, cut into short slices and interleaved: slice 1 runs every case in
 * order, slice 2 in reverse, and so on, for an even number of slices. A VM's speed can move by tens
 * of percent from one 10 s run to the next; measured this way, every case sees the same drift on
 * average, so the ratios compare the servers rather than the moments they ran in.
 */
import { median } from './bench-stats.js';
import type { WrkResult } from './wrk-runner.js';

/** One wrk run of a case, for `seconds`. */
export type Run = (seconds: number) => Promise<WrkResult>;

/**
 * The slices a run of `seconds` becomes: about 2 s each (wrk takes whole seconds), an even number
 * of them so that forward and reverse orders alternate evenly.
 */
export function slicesOf(seconds: number): { slices: number; sliceSeconds: number } {
  const slices = 2 * Math.max(1, Math.round(seconds / 4));
  return { slices, sliceSeconds: Math.max(1, Math.round(seconds / slices)) };
}

/**
 * One result over a case's slices: requests and errors summed, the rate over the summed duration,
 * the median p50, the worst p99 and maximum, and the mean shares of a core.
 */
export function combine(slices: WrkResult[]): WrkResult {
  const sum = (pick: (r: WrkResult) => number) => slices.reduce((total, r) => total + pick(r), 0);
  const seconds = sum((r) => r.seconds);
  const mean = (pick: (r: WrkResult) => number | undefined) => {
    const xs = slices.map(pick).filter((x): x is number => x !== undefined);
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined;
  };
  const errors = {
    connect: sum((r) => r.errors.connect),
    read: sum((r) => r.errors.read),
    write: sum((r) => r.errors.write),
    timeout: sum((r) => r.errors.timeout),
    status: sum((r) => r.errors.status),
  };
  return {
    requests: sum((r) => r.requests),
    seconds,
    rps: sum((r) => r.requests) / seconds,
    p50Ms: median(slices.map((r) => r.p50Ms)),
    p99Ms: Math.max(...slices.map((r) => r.p99Ms)),
    maxMs: Math.max(...slices.map((r) => r.maxMs)),
    errors,
    errorCount: sum((r) => r.errorCount),
    wrkCores: mean((r) => r.wrkCores),
    serverCores: mean((r) => r.serverCores),
  };
}

/** A case's slices, and their combination. */
export interface Interleaved extends WrkResult {
  slices: WrkResult[];
}

/** Slices of one case, with their combination. */
export const interleavedOf = (slices: WrkResult[]): Interleaved => ({ ...combine(slices), slices });

/** Runs every case for `seconds` in total, in interleaved slices; `reverse` starts with the reverse order. */
export async function interleave<K extends string>(
  cases: Record<K, Run>,
  seconds: number,
  reverse = false,
): Promise<Record<K, Interleaved>> {
  const { slices, sliceSeconds } = slicesOf(seconds);
  const keys = Object.keys(cases) as K[];
  const results = new Map<K, WrkResult[]>(keys.map((k) => [k, []]));
  for (let slice = 0; slice < slices; slice++) {
    const order = (slice % 2 === 1) !== reverse ? [...keys].reverse() : keys;
    for (const k of order) results.get(k)!.push(await cases[k](sliceSeconds));
  }
  return Object.fromEntries(keys.map((k) => [k, interleavedOf(results.get(k)!)])) as Record<K, Interleaved>;
}

/**
 * The ratio of two interleaved cases: the median over slices of one's rate over the other's in the
 * same slice. Each slice compares the two a few seconds apart, and the median leaves out the slices
 * in which a burst of the VM's neighbours slowed one side only.
 */
export function sliceRatio(numerator: Interleaved, denominator: Interleaved): number {
  return median(numerator.slices.map((slice, i) => slice.rps / denominator.slices[i]!.rps));
}
