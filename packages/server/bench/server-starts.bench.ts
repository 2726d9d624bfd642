/**
 * bench:server-starts — does a freshly started server serve one track at full speed every time?
 *
 * V8 decides per allocation site, from the survival it sees early on, whether to allocate straight
 * into the old generation (allocation-site pretenuring). In some starts it decided so for the
 * manifest path's short-lived request objects, and that process then ran a full mark-compact
 * several times a second for as long as it lived (src/serving-heap.ts). Whether a start goes that
 * way is chance, so one start says nothing: this starts the built server BENCH_STARTS (8) times with
 * `tuneHeapForServing` (what `ferry-server` does) and as many times without it, alternating, and
 * for each start measures one warm track with wrk (1 thread, 50 connections, 6 s after a 2 s
 * warm-up) and counts the mark-compacts during the measured run (`--trace-gc`).
 *
 * Every start uses a copy of the same DATA_DIR: 1,001 published tracks, which a starting instance
 * loads before it listens, as in bench:manifest (with one track the misjudgement was not seen: it
 * needs the start-up load's surviving objects). The figure is the median req/s per variant, their
 * ratio, and how many starts ran any mark-compact.
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { freePort } from '../../../scripts/free-port.js';
import { median, printTable } from './bench-stats.js';
import { buildServer, writeSigningKey } from './manifest-servers.js';
import { fileOf, javascriptBundle, Publisher } from './publish-over-http.js';
import { runWrk, wrkAvailable } from './wrk-runner.js';

const STARTS = Math.max(1, Number(process.env.BENCH_STARTS ?? 8));
const LUA = fileURLToPath(new URL('./wrk/manifest.lua', import.meta.url));
const FERRY = fileURLToPath(new URL('./servers/ferry.mjs', import.meta.url));
const TOKEN = 'bench-release-token-0123456789';

async function start(dataDir: string, port: number, tuned: boolean, gcLog: string): Promise<ChildProcess> {
  const child = fork(FERRY, [String(port), dataDir, TOKEN], {
    execArgv: ['--trace-gc'],
    env: { ...process.env, BENCH_HEAP_TUNING: tuned ? 'on' : 'off' },
    stdio: ['ignore', fs.openSync(gcLog, 'w'), 'inherit', 'ipc'],
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) on start`)));
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function main(): Promise<number> {
  if (!wrkAvailable()) {
    console.error('bench:server-starts needs wrk: apt-get install -y wrk');
    return 1;
  }
  buildServer();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-starts-'));
  try {
    const seed = path.join(work, 'seed');
    fs.mkdirSync(seed);
    writeSigningKey(seed);
    const seedPort = await freePort();
    const seeding = await start(seed, seedPort, true, path.join(work, 'seed.gc.log'));
    const publisher = new Publisher(`http://127.0.0.1:${seedPort}`, TOKEN);
    const image = fileOf(Buffer.alloc(1500, 7), 'image/png', '.png');
    const limit = pLimit(16);
    const versions = ['2.0.0', ...Array.from({ length: 1000 }, (_, i) => `1.0.${i}`)];
    await Promise.all(
      versions.map((version) =>
        limit(async () => {
          const files = [javascriptBundle(2048), image];
          await publisher.publish(version, files, await publisher.upload(version, files), 'seed');
        }),
      ),
    );
    await stop(seeding);

    const rows: Array<Record<string, string | number>> = [];
    const rps: Record<'with' | 'without', number[]> = { with: [], without: [] };
    const slow: Record<'with' | 'without', number> = { with: 0, without: 0 };
    for (let i = 0; i < STARTS * 2; i++) {
      const tuned = i % 2 === 0;
      const dataDir = path.join(work, `start-${i}`);
      fs.cpSync(seed, dataDir, { recursive: true });
      const gcLog = path.join(work, `start-${i}.gc.log`);
      const serverPort = await freePort();
      const child = await start(dataDir, serverPort, tuned, gcLog);
      const url = `http://127.0.0.1:${serverPort}/api/updates/manifest`;
      const args = { url, script: LUA, scriptArgs: ['2.0.', '1', '-', '0'], connections: 50, threads: 1 };
      await runWrk({ ...args, seconds: 2 });
      const linesBefore = fs.readFileSync(gcLog, 'utf8').split('\n').length;
      const run = await runWrk({ ...args, seconds: 6, serverPid: child.pid });
      const markCompacts = fs
        .readFileSync(gcLog, 'utf8')
        .split('\n')
        .slice(linesBefore)
        .filter((line) => line.includes('Mark-Compact')).length;
      await stop(child);
      const variant = tuned ? 'with' : 'without';
      rps[variant].push(run.rps);
      if (markCompacts > 0) slow[variant]++;
      rows.push({
        start: String(i + 1),
        pretenuring: tuned ? 'off (ferry-server)' : 'on (V8 default)',
        'req/s': String(Math.round(run.rps)),
        'mark-compacts in 6 s': String(markCompacts),
        'server cores': run.serverCores?.toFixed(2) ?? '?',
      });
      console.error(
        `  start ${i + 1}: ${rows.at(-1)!.pretenuring}, ${Math.round(run.rps)} req/s, ${markCompacts} mark-compacts`,
      );
    }
    console.log();
    printTable(rows);
    console.log();
    printTable([
      {
        variant: 'pretenuring off (ferry-server)',
        'median req/s': String(Math.round(median(rps.with))),
        'starts with mark-compacts': `${slow.with} of ${STARTS}`,
      },
      {
        variant: 'pretenuring on (V8 default)',
        'median req/s': String(Math.round(median(rps.without))),
        'starts with mark-compacts': `${slow.without} of ${STARTS}`,
      },
    ]);
    console.log(
      `\nratio of medians (off / on): ${(median(rps.with) / median(rps.without)).toFixed(3)}; ` +
        `min over starts: off ${Math.round(Math.min(...rps.with))}, on ${Math.round(Math.min(...rps.without))} req/s` +
        `\n${os.cpus().length} CPUs; load average (1 min) after: ${os.loadavg()[0]!.toFixed(2)}`,
    );
    return 0;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench:server-starts failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
