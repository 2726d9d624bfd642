/**
 * metrics bench: what counting one manifest answer costs (`FerryMetrics.manifestAnswered`: a
 * counter by outcome × platform × channel and the duration histogram), against prom-client used
 * directly with its label children kept in a Map (the baseline of the ratio), in the same run.
 * Measured in this process's CPU time (process.cpuUsage), so a busy machine slows both alike
 * rather than adding its waits; the median of interleaved rounds is reported.
 * Run: `npx tsx packages/server/bench/metrics.bench.ts` (BENCH_CALLS per round, default 2,000,000).
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { FerryMetrics, MANIFEST_DURATION_BUCKETS } from '../src/metrics/ferry-metrics.js';
import { printTable } from './bench-stats.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 2_000_000);
const ROUNDS = 9;
const OUTCOMES = ['update', 'no-update', 'directive', 'rollout-fallback'] as const;
const PLATFORMS = ['ios', 'android'];
const CHANNELS = ['production', 'development'];
const seconds = (i: number) => 0.00012 + (i & 7) * 0.00005;

const ferry = new FerryMetrics({ processMetrics: false });
const registry = new Registry();
const counter = new Counter({
  name: 'bench_requests_total',
  help: 'bench',
  labelNames: ['outcome', 'platform', 'channel'],
  registers: [registry],
});
const histogram = new Histogram({
  name: 'bench_duration_seconds',
  help: 'bench',
  buckets: MANIFEST_DURATION_BUCKETS,
  registers: [registry],
});
const children = new Map<string, ReturnType<typeof counter.labels>>();

const cases: Record<string, (i: number) => void> = {
  'loop only': (i) => {
    void OUTCOMES[i & 3];
    void PLATFORMS[(i >> 2) & 1];
    void CHANNELS[(i >> 3) & 1];
    void seconds(i);
  },
  'FerryMetrics.manifestAnswered': (i) =>
    ferry.manifestAnswered(
      OUTCOMES[i & 3] as (typeof OUTCOMES)[number],
      PLATFORMS[(i >> 2) & 1] as string,
      CHANNELS[(i >> 3) & 1] as string,
      seconds(i),
    ),
  'prom-client, children in a Map': (i) => {
    const outcome = OUTCOMES[i & 3] as string;
    const platform = PLATFORMS[(i >> 2) & 1] as string;
    const channel = CHANNELS[(i >> 3) & 1] as string;
    const key = `${outcome}\u0001${platform}\u0001${channel}`;
    let child = children.get(key);
    if (!child) {
      child = counter.labels(outcome, platform, channel);
      children.set(key, child);
    }
    child.inc();
    histogram.observe(seconds(i));
  },
};

function cpuNsPerCall(run: (i: number) => void): number {
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) run(i);
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / CALLS;
}

const samples: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(cases)) samples[name]?.push(cpuNsPerCall(run));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const baseline = median(samples['prom-client, children in a Map'] ?? []);
printTable(
  Object.entries(samples).map(([name, values]) => ({
    case: name,
    'ns/call (median)': median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    'vs prom-client': median(values) / baseline,
  })),
);
