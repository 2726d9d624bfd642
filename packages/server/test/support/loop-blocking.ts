import fs from 'node:fs';

/**
 * Watches this process's event loop for synchronous stretches, in a way a busy machine cannot fake.
 * A timer ticks every few milliseconds; the gap between two ticks is how long the loop could not
 * run it. On a loaded machine that gap also holds time the main thread was not scheduled at all,
 * so each gap is also measured in CPU time the main thread itself used meanwhile (Linux counts it
 * per thread, in /proc/thread-self/schedstat): a stretch of the loop's own work costs that thread
 * CPU, waiting for a core does not. `longestBlockMs` is min(wall gap, main-thread CPU) over every
 * gap: an upper bound on the longest block that does not grow with the machine's load. Where
 * per-thread CPU is not readable it falls back to the wall gap alone. RSS is sampled too.
 */
export interface LoopWatch {
  stop(): { longestBlockMs: number; longestWallGapMs: number; peakRssBytes: number };
}

/** This thread's time on a CPU in ms (schedstat's first field, in ns), or undefined off Linux. */
function mainThreadCpuMs(): number | undefined {
  try {
    const onCpuNs = Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
    return Number.isFinite(onCpuNs) ? onCpuNs / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

export function watchLoopBlocking(intervalMs = 5): LoopWatch {
  let lastWall = process.hrtime.bigint();
  let lastCpu = mainThreadCpuMs();
  let longestBlockMs = 0;
  let longestWallGapMs = 0;
  let peakRssBytes = process.memoryUsage.rss();
  const timer = setInterval(() => {
    const wall = process.hrtime.bigint();
    const cpu = mainThreadCpuMs();
    const wallGapMs = Number(wall - lastWall) / 1e6 - intervalMs;
    const cpuMs = cpu !== undefined && lastCpu !== undefined ? cpu - lastCpu : wallGapMs;
    longestWallGapMs = Math.max(longestWallGapMs, wallGapMs);
    longestBlockMs = Math.max(longestBlockMs, Math.min(wallGapMs, cpuMs));
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage.rss());
    lastWall = wall;
    lastCpu = cpu;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return { longestBlockMs, longestWallGapMs, peakRssBytes };
    },
  };
}
