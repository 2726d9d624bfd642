/**
 * bench:startup — time from process start to the first 200 of `GET /healthz`, for
 *   (a) the built server: `node packages/server/bin/ferry-server.js` (dist/; what `npm start` and an
 *       installed @ferry/server run),
 *   (b) the tsx start it replaced: `node --conditions=@ferry/source --import tsx packages/server/src/main.ts`.
 * Target: (a) healthy within 1.5 s (median).
 *
 * Each run starts the server as `npm start` does with nothing configured (development mode: SQLite,
 * local objects, vendor simulators) in a fresh, empty DATA_DIR, so every run also creates the
 * development keys, as a first start does. a and b alternate, so both see the same machine
 * conditions; each server is stopped with SIGTERM and has exited before the next one starts.
 * `/healthz` is polled every 10 ms from the moment of the spawn on a port chosen before it (PORT=0
 * would also make the default PUBLIC_URL end in :0). The time of the server's own "Server listening
 * at" log line is shown too: the rest of the way to healthy is the first request.
 *
 * Run `npx tsc -b tsconfig.build.json` (or `npm run build`) first: (a) runs what is in dist/.
 * BENCH_STARTUP_RUNS (10) runs of each are counted after BENCH_STARTUP_WARMUP (1) of each that are
 * not, so neither variant alone pays for reading node_modules into the page cache. tsx keeps its
 * compiled files in a cache of its own (os.tmpdir()/tsx-<uid>), so (b) is a repeated development
 * start, not a first one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../scripts/free-port.js';
import { printTable, watchMachineCpu } from './bench-stats.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 10);
const WARMUP = Number(process.env.BENCH_STARTUP_WARMUP ?? 1);
const TARGET_MS = 1500;
const POLL_INTERVAL_MS = 10;
const START_TIMEOUT_MS = 60_000;
const EXIT_TIMEOUT_MS = 15_000;

interface Variant {
  name: string;
  args: string[];
}

const BUILT: Variant = { name: '(a) built: bin/ferry-server.js', args: ['packages/server/bin/ferry-server.js'] };
const TSX: Variant = {
  name: '(b) tsx: src/main.ts',
  args: ['--conditions=@ferry/source', '--import', 'tsx', 'packages/server/src/main.ts'],
};

interface Sample {
  /** Spawn → first 200 of /healthz. */
  healthyMs: number;
  /** Spawn → the server's "Server listening at" log line (its own clock), if it logged one. */
  listenMs: number | undefined;
}

/** Warns when a package's sources changed after its last build: (a) would measure old code. */
function warnIfStale(): void {
  const newest = (dir: string): number => {
    let latest = 0;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
      latest = Math.max(latest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
    return latest;
  };
  for (const name of ['contracts', 'dev-tools', 'server']) {
    const pkg = path.join(REPO_ROOT, 'packages', name);
    const buildInfo = path.join(pkg, 'dist', '.tsbuildinfo');
    if (!fs.existsSync(buildInfo)) continue;
    if (newest(path.join(pkg, 'src')) > fs.statSync(buildInfo).mtimeMs) {
      console.error(`bench:startup: packages/${name}/src changed after its build; run npx tsc -b tsconfig.build.json`);
    }
  }
}

/** One GET /healthz without keep-alive: its status, or 0 when nothing answered. */
function healthz(port: number): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/healthz', agent: false, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

async function startOnce(variant: Variant): Promise<Sample> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-startup-'));
  const port = await freePort();
  // What `npm start` sees with nothing configured; a production or shared setting of the caller's
  // shell (NODE_ENV, DATABASE_URL, REDIS_URL, …) would measure something else.
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  for (const name of ['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'PUBLIC_URL', 'OTA_RELEASE_TOKEN', 'LOG_LEVEL']) {
    delete env[name];
  }
  let output = '';
  let listenMs: number | undefined;
  const spawnedAt = Date.now();
  const t0 = performance.now();
  const child = spawn(process.execPath, variant.args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (listenMs !== undefined || !line.includes('Server listening at')) continue;
      try {
        const entry = JSON.parse(line) as { msg?: string; time?: number; simulator?: string };
        // The vendor simulators log the same line for their own ports.
        if (entry.simulator === undefined && entry.msg?.startsWith('Server listening at') && entry.time) {
          listenMs = entry.time - spawnedAt;
        }
      } catch {
        // not a log line
      }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `${variant.name} exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${output}`,
        );
      }
      if ((await healthz(port)) === 200) return { healthyMs: performance.now() - t0, listenMs };
      if (performance.now() - t0 > START_TIMEOUT_MS) {
        throw new Error(`${variant.name} was not healthy after ${START_TIMEOUT_MS} ms:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  } finally {
    await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Order statistics of a few samples. bench-stats' percentile() takes the sample at floor(p·n),
 * which for 10 samples makes p90 the maximum; here the median of an even count is the mean of the
 * middle two and p90 is the nearest rank (the 9th of 10).
 */
function summary(samples: number[]): { min: number; median: number; p90: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const at = (i: number) => sorted[Math.min(n - 1, Math.max(0, i))] ?? Number.NaN;
  const median = n % 2 === 1 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
  return { min: at(0), median, p90: at(Math.ceil(0.9 * n) - 1), max: at(n - 1) };
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(REPO_ROOT, 'packages/server/dist/main.js'))) {
    console.error('bench:startup: packages/server/dist is not built; run npx tsc -b tsconfig.build.json first');
    process.exit(2);
  }
  warnIfStale();
  console.error(
    `bench:startup: ${RUNS} runs of each (after ${WARMUP} not counted), alternating, fresh DATA_DIR each, ${os.cpus().length} CPUs`,
  );
  const variants = [BUILT, TSX];
  const samples = new Map<Variant, Sample[]>(variants.map((variant) => [variant, []]));
  for (let i = 0; i < WARMUP; i++) {
    for (const variant of variants) await startOnce(variant);
  }
  const cpu = watchMachineCpu();
  for (let i = 0; i < RUNS; i++) {
    const line: string[] = [];
    for (const variant of variants) {
      const sample = await startOnce(variant);
      samples.get(variant)!.push(sample);
      line.push(`${variant === BUILT ? 'a' : 'b'} ${sample.healthyMs.toFixed(0)} ms`);
    }
    console.error(`  run ${i + 1}/${RUNS}: ${line.join(', ')}`);
  }
  const machine = cpu.stop();

  const rows = variants.map((variant) => {
    const runs = samples.get(variant)!;
    const healthy = summary(runs.map((sample) => sample.healthyMs));
    const listens = runs.flatMap((sample) => (sample.listenMs === undefined ? [] : [sample.listenMs]));
    return { variant, healthy, listen: listens.length > 0 ? summary(listens).median : undefined, runs: runs.length };
  });
  // Whole milliseconds: printTable() prints numbers with three decimals.
  const ms = (value: number) => value.toFixed(0);
  console.log();
  printTable(
    rows.map(({ variant, healthy, listen, runs }) => ({
      variant: variant.name,
      runs: String(runs),
      'min ms': ms(healthy.min),
      'median ms': ms(healthy.median),
      'p90 ms': ms(healthy.p90),
      'max ms': ms(healthy.max),
      'listening, median ms': listen === undefined ? 'n/a' : ms(listen),
    })),
  );
  const built = rows[0]!.healthy.median;
  const tsx = rows[1]!.healthy.median;
  console.log();
  printTable([
    {
      'built median ms': ms(built),
      'tsx median ms': ms(tsx),
      'ratio built/tsx (median)': built / tsx,
      'target (built, median)': `≤ ${TARGET_MS} ms`,
    },
  ]);
  if (machine) {
    console.log(
      `\nmachine during the runs: ${(machine.busyShare * 100).toFixed(0)} % of all cores busy on average (the server starting included), ` +
        `${(machine.fullWindowShare * 100).toFixed(0)} % of 100 ms windows full, steal ${(machine.stealShare * 100).toFixed(1)} %`,
    );
  }
  console.log(
    `\ntarget met: ${built <= TARGET_MS ? 'yes' : 'NO'} (built server healthy in ${ms(built)} ms, median; ` +
      'other processes on this machine share the CPU)',
  );
}

await main();
