import fs from 'node:fs';

/**
 * Small helpers shared by the benchmark scripts: percentiles and medians, a table printer, and
 * readings of the host (CPU, steal, disk writes).
 */
export const percentile = (sortedMs: number[], p: number): number =>
  sortedMs[Math.min(sortedMs.length - 1, Math.floor((p / 100) * sortedMs.length))] ?? Number.NaN;

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function timeEach(
  count: number,
  run: (i: number) => Promise<unknown>,
): Promise<{ p50: number; p99: number; opsPerSec: number }> {
  const samples: number[] = [];
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint();
    await run(i);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const totalMs = Number(process.hrtime.bigint() - start) / 1e6;
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), opsPerSec: (count / totalMs) * 1000 };
}

export function printTable(rows: Array<Record<string, string | number>>): void {
  const headers = Object.keys(rows[0] ?? {});
  const cell = (v: string | number) => (typeof v === 'number' ? v.toFixed(3) : v);
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => String(cell(r[h] ?? '')).length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(headers));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(headers.map((h) => String(cell(row[h] ?? '')))));
}

/**
 * The whole machine's CPU time since boot, summed over all CPUs, in ms; undefined where
 * /proc/stat is missing.
 * - busy: every program's work (user, nice, system, interrupts), whoever ran it.
 * - steal: time the hypervisor ran something else while this machine's CPUs had work. On a shared
 *   virtual machine it is the one source of latency no program here can see otherwise.
 * - total: busy, steal and idle together, to turn the others into a share of the machine.
 */
function machineCpuMs(): { busy: number; steal: number; total: number } | undefined {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]?.trim().split(/\s+/).slice(1, 9).map(Number);
    if (!fields || fields.length < 8 || fields.some((n) => !Number.isFinite(n))) return undefined;
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
    // /proc/stat counts in USER_HZ, 100 per second on every Linux architecture Node supports.
    const busy = user + nice + system + irq + softirq;
    return { busy: busy * 10, steal: steal * 10, total: (busy + idle + iowait + steal) * 10 };
  } catch {
    return undefined;
  }
}

/**
 * Reads `read()` every `intervalMs` and hands each pair of consecutive readings to `onWindow`
 * until stopped; `stop` answers the last reading. Unref'd, so it never keeps a benchmark alive.
 */
function sampleWindows<T>(
  intervalMs: number,
  read: () => T | undefined,
  onWindow: (previous: T, current: T) => void,
): { first: T | undefined; stop: () => T | undefined } {
  const first = read();
  let previous = first;
  const timer = setInterval(() => {
    const current = read();
    if (previous !== undefined && current !== undefined) onWindow(previous, current);
    previous = current;
  }, intervalMs);
  timer.unref();
  return {
    first,
    stop: () => {
      clearInterval(timer);
      return previous;
    },
  };
}

/**
 * Samples the whole machine's CPU every `intervalMs` until stopped: the mean share of all cores
 * busy, and the share of windows in which at least `fullShare` of them were busy or taken by the
 * hypervisor (steal). The mean hides bursts (it sat near 75 % while whole 100 ms windows were
 * full), and in a full window every runnable thread waits for a core.
 */
export function watchMachineCpu(
  intervalMs = 100,
  fullShare = 0.9,
): {
  stop: () => { busyShare: number; fullWindowShare: number; stealMs: number; stealShare: number } | undefined;
} {
  let windows = 0;
  let full = 0;
  const sampler = sampleWindows(intervalMs, machineCpuMs, (previous, current) => {
    if (current.total <= previous.total) return;
    windows++;
    // Time the hypervisor took is as unavailable to waiting threads as time other programs took.
    const taken = current.busy - previous.busy + current.steal - previous.steal;
    if (taken / (current.total - previous.total) >= fullShare) full++;
  });
  return {
    stop: () => {
      sampler.stop();
      const first = sampler.first;
      const last = machineCpuMs();
      if (!first || !last) return undefined;
      return {
        busyShare: (last.busy - first.busy) / Math.max(1, last.total - first.total),
        fullWindowShare: full / Math.max(1, windows),
        stealMs: last.steal - first.steal,
        stealShare: (last.steal - first.steal) / Math.max(1, last.total - first.total),
      };
    },
  };
}

const wholeDisks = (): Set<string> => {
  try {
    return new Set(fs.readdirSync('/sys/block').filter((name) => !/^(loop|ram|zram)/.test(name)));
  } catch {
    return new Set();
  }
};

/** Writes completed and ms spent on them, summed over the machine's disks (/proc/diskstats). */
function diskWrites(disks: Set<string>): { writes: number; ms: number } | undefined {
  try {
    let writes = 0;
    let ms = 0;
    for (const line of fs.readFileSync('/proc/diskstats', 'utf8').split('\n')) {
      const fields = line.trim().split(/\s+/);
      if (!disks.has(fields[2] ?? '')) continue;
      writes += Number(fields[7]);
      ms += Number(fields[10]);
    }
    return { writes, ms };
  } catch {
    return undefined;
  }
}

/**
 * Samples the disks' write latency every `intervalMs` until stopped, and reports the slowest
 * window's mean ms per write. A database commit waits for its WAL write, so when the (virtual)
 * disk stalls, every commit in flight stalls with it; this shows when that happened.
 */
export function watchDiskWrites(intervalMs = 100): { stop: () => { slowestWindowMsPerWrite: number } | undefined } {
  const disks = wholeDisks();
  let slowest = 0;
  const sampler = sampleWindows(
    intervalMs,
    () => diskWrites(disks),
    (previous, current) => {
      if (current.writes > previous.writes) {
        slowest = Math.max(slowest, (current.ms - previous.ms) / (current.writes - previous.writes));
      }
    },
  );
  return {
    stop: () => (disks.size > 0 && sampler.stop() !== undefined ? { slowestWindowMsPerWrite: slowest } : undefined),
  };
}
