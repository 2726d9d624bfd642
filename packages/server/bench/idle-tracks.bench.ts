/**
 * bench:idle-tracks — 1,000 tracks that nobody asked for during an idle stretch longer than the
 * manifest cache's TTL and stale-if-error limit (an idle hour, scaled down: a TTL of TTL_SECONDS,
 * a limit of STALE_SECONDS, IDLE_SECONDS of idleness). Each round loads every track (a settle
 * run), measures them warm, idles, and measures again. Each instance is measured warm, then right
 * after the idle stretch, with wrk spreading requests round robin over the 1,000 tracks (the
 * wrk/manifest.lua of bench:manifest); the ratio is after-idle over warm, in the same process:
 *   - refreshed: the default behaviour, tracks reloaded in the background past their TTL
 *     (ManifestCache.refreshDue). Target: requests per second ≥ 0.9 of warm, p99 ≤ 2 × warm;
 *   - dropped at TTL (MANIFEST_STALE_IF_ERROR_SECONDS=0): what every idle track did before the
 *     refresh, dropped and loaded again on the time of the first device that asks.
 * Both instances run the built server (dist/) on one DATA_DIR and port, started in turn, and wait
 * for their start-up work as a load balancer waits for /readyz. BENCH_DURATION_SECONDS (5) and
 * BENCH_ROUNDS (3) override the defaults. Exit code 1 when wrk is missing or a run saw errors.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { freePort } from '../../../scripts/free-port.js';
import { median, printTable } from './bench-stats.js';
import { buildServer, type Server, startServer, stopServer, writeSigningKey } from './manifest-servers.js';
import { fileOf, javascriptBundle, Publisher } from './publish-over-http.js';
import { runWrk, type WrkResult, wrkAvailable } from './wrk-runner.js';

const LUA = fileURLToPath(new URL('./wrk/manifest.lua', import.meta.url));
const SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 5);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const CONNECTIONS = 50;
const TOKEN = 'bench-release-token-0123456789';
const PREFIX = '1.0.';
const TRACKS = 1000;
/** Longer than a settle and a warm run together, so "warm" is warm on both instances. */
const TTL_SECONDS = 12;
const STALE_SECONDS = 5;
/** Past the TTL and the stale-if-error limit together. */
const IDLE_SECONDS = TTL_SECONDS + STALE_SECONDS + 2;

const failures: string[] = [];
const run = async (server: Server, label: string): Promise<WrkResult> => {
  const result = await runWrk({
    url: `${server.url}/api/updates/manifest`,
    script: LUA,
    scriptArgs: [PREFIX, String(TRACKS), '-', '0'],
    seconds: SECONDS,
    connections: CONNECTIONS,
    threads: 1,
    serverPid: server.child.pid,
  });
  if (result.errorCount > 0) failures.push(`${label}: ${JSON.stringify(result.errors)}`);
  console.error(
    `  ${label.padEnd(34)} ${result.rps.toFixed(0).padStart(6)} req/s  p99 ${result.p99Ms.toFixed(1)} ms  max ${result.maxMs.toFixed(1)} ms`,
  );
  return result;
};

async function main(): Promise<number> {
  if (!wrkAvailable()) {
    console.error('bench:idle-tracks needs wrk: apt-get install -y wrk');
    return 1;
  }
  console.log(
    `bench:idle-tracks: ${TRACKS} tracks, TTL ${TTL_SECONDS} s, stale-if-error ${STALE_SECONDS} s, idle ${IDLE_SECONDS} s; ` +
      `wrk 1 thread, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds; load average ${os.loadavg()[0]!.toFixed(2)}`,
  );
  buildServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-idle-'));
  const port = await freePort();
  let server: Server | undefined;
  try {
    writeSigningKey(dataDir);
    const env = (stale: number) => ({
      BENCH_CACHE_TTL_SECONDS: String(TTL_SECONDS),
      BENCH_STALE_IF_ERROR_SECONDS: String(stale),
    });
    server = await startServer('ferry', port, [dataDir, TOKEN], undefined, env(STALE_SECONDS));
    const publisher = new Publisher(server.url, TOKEN);
    const limit = pLimit(16);
    const image = fileOf(Buffer.alloc(1500, 7), 'image/png', '.png');
    await Promise.all(
      Array.from({ length: TRACKS }, (_, i) =>
        limit(async () => {
          const files = [javascriptBundle(2048), image];
          await publisher.publish(`${PREFIX}${i}`, files, await publisher.upload(`${PREFIX}${i}`, files), 'idle');
        }),
      ),
    );
    await stopServer(server);

    const rows: Array<Record<string, string | number>> = [];
    for (const [name, stale] of [
      ['refreshed (default)', STALE_SECONDS],
      ['dropped at TTL (stale-if-error 0)', 0],
    ] as const) {
      server = await startServer('ferry', port, [dataDir, TOKEN], undefined, env(stale));
      const rps: number[] = [];
      const p99: number[] = [];
      const warmP99: number[] = [];
      const idleP99: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        // Every track loaded (on the dropped instance too), then measured warm within its TTL.
        await run(server, `${name}: settle`);
        const warm = await run(server, `${name}: warm`);
        await sleep(IDLE_SECONDS * 1000);
        const idle = await run(server, `${name}: after ${IDLE_SECONDS} s idle`);
        rps.push(idle.rps / warm.rps);
        p99.push(idle.p99Ms / warm.p99Ms);
        warmP99.push(warm.p99Ms);
        idleP99.push(idle.p99Ms);
      }
      rows.push({
        instance: name,
        'req/s after idle / warm (median)': median(rps).toFixed(2),
        range: `${Math.min(...rps).toFixed(2)}–${Math.max(...rps).toFixed(2)}`,
        'p99 after idle / warm (median)': median(p99).toFixed(2),
        'warm p99 ms (median)': median(warmP99).toFixed(1),
        'after-idle p99 ms (median)': median(idleP99).toFixed(1),
      });
      await stopServer(server);
      server = undefined;
    }
    printTable(rows);
    console.log('targets (refreshed): req/s ratio ≥ 0.9, p99 ratio ≤ 2');
  } finally {
    if (server) await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(`errors:\n${failures.join('\n')}`);
    return 1;
  }
  return 0;
}

process.exitCode = await main();
