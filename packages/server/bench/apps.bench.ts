/**
 * `npm run bench:apps`: the manifest path of one Ferry serving many apps (docs/apps.md, "How many
 * apps"). One built server holds 100 apps of 10 tracks each (1,000 tracks, every app with its own
 * signing key), published through the API, and the default app's one track. wrk then asks:
 *
 *   (apps) the 1,000 tracks of the 100 apps, round robin over /api/apps/bench-<a>/manifest;
 *   (one)  the one track of the default app, at /api/updates/manifest;
 *
 * interleaved in slices, so both see the same moments of the machine; the ratio of a round is the
 * median over slices of apps req/s over one req/s. Target ≥ 0.9: serving many apps costs a device
 * no more than serving one. Method as bench:manifest (docs/benchmarks.md): wrk (1 thread, 50
 * connections), the server in its own process running dist/, the same Lua per request on both sides.
 */

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { freePort } from '../../../scripts/free-port.js';
import { median, printTable } from './bench-stats.js';
import { interleave, type Run, sliceRatio, slicesOf } from './interleaved-runs.js';
import { buildServer, startServer, stopServer, writeSigningKey } from './manifest-servers.js';
import { fileOf, get, javascriptBundle, Publisher } from './publish-over-http.js';
import { runWrk, wrkAvailable } from './wrk-runner.js';

const LUA = fileURLToPath(new URL('./wrk/manifest.lua', import.meta.url));
const SERVER_BIN = fileURLToPath(new URL('../bin/ferry-server.js', import.meta.url));
const SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const APPS = 100;
const TRACKS_PER_APP = 10;
const TOKEN = 'bench-release-token-0123456789';
/** Runtime versions as wrk/manifest.lua builds them: 1.0.0 … 1.0.9 in every app, 2.0.0 for the one track. */
const SPREAD = '1.0.';
const SINGLE = '2.0.';
const SETUP_CONCURRENCY = 16;

const headersOf = (runtimeVersion: string) => ({
  accept: 'multipart/mixed,application/expo+json,application/json',
  'expo-protocol-version': '1',
  'expo-platform': 'ios',
  'expo-runtime-version': runtimeVersion,
  'expo-channel-name': 'production',
});

function adminToken(dataDir: string, secret: string): string {
  const made = spawnSync(
    process.execPath,
    [SERVER_BIN, 'tokens', 'create', '--name', 'bench-admin', '--role', 'admin'],
    {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', APP_KEYS_SECRET: secret },
      encoding: 'utf8',
    },
  );
  const token = made.stdout.match(/ferry_op_[A-Za-z0-9_-]+/)?.[0];
  if (made.status !== 0 || !token) throw new Error(`ferry-server tokens create failed: ${made.stderr || made.stdout}`);
  return token;
}

async function main(): Promise<number> {
  if (!wrkAvailable()) {
    console.error('bench:apps needs wrk: apt-get install -y wrk');
    return 1;
  }
  const { slices, sliceSeconds } = slicesOf(SECONDS);
  console.log(
    `bench:apps: ${APPS} apps × ${TRACKS_PER_APP} tracks against one app with one track; wrk 1 thread, ` +
      `${CONNECTIONS} connections, ${slices} slices of ${sliceSeconds} s per round, ${ROUNDS} rounds; ` +
      `${os.cpus().length} CPUs; load average (1 min) before: ${os.loadavg()[0]!.toFixed(2)}`,
  );
  buildServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-apps-'));
  const secret = randomBytes(32).toString('base64');
  const failures: string[] = [];
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    writeSigningKey(dataDir);
    const admin = adminToken(dataDir, secret);
    server = await startServer('ferry', await freePort(), [dataDir, TOKEN], undefined, { APP_KEYS_SECRET: secret });
    const base = server.url;

    const started = performance.now();
    const limit = pLimit(SETUP_CONCURRENCY);
    const images = [fileOf(randomBytes(1500), 'image/png', '.png')];
    const publishTrack = async (publisher: Publisher, version: string) => {
      const files = [javascriptBundle(2048), ...images];
      return publisher.publish(version, files, await publisher.upload(version, files), 'setup');
    };
    const tokens = await Promise.all(
      Array.from({ length: APPS }, (_, a) =>
        limit(async () => {
          const created = await fetch(`${base}/api/apps`, {
            method: 'POST',
            headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
            body: JSON.stringify({ slug: `bench-${a}` }),
          });
          if (created.status !== 201)
            throw new Error(`POST /api/apps answered ${created.status}: ${await created.text()}`);
          return ((await created.json()) as { releaseToken: string }).releaseToken;
        }),
      ),
    );
    await Promise.all(
      tokens.flatMap((token) =>
        Array.from({ length: TRACKS_PER_APP }, (_, i) =>
          limit(() => publishTrack(new Publisher(base, token), `${SPREAD}${i}`)),
        ),
      ),
    );
    await publishTrack(new Publisher(base, TOKEN), `${SINGLE}0`);
    console.log(
      `set-up: ${APPS} apps (a key each) and ${APPS * TRACKS_PER_APP + 1} tracks published through the API in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const [url, version] of [
      [`${base}/api/apps/bench-${APPS - 1}/manifest`, `${SPREAD}${TRACKS_PER_APP - 1}`],
      [`${base}/api/updates/manifest`, `${SINGLE}0`],
    ] as const) {
      const answer = await get(url, headersOf(version));
      if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
    }

    const measure =
      (prefix: string, tracks: number, apps: number): Run =>
      (seconds) =>
        runWrk({
          url: `${base}/api/updates/manifest`,
          script: LUA,
          scriptArgs: [prefix, String(tracks), '-', '0', String(apps)],
          seconds,
          connections: CONNECTIONS,
          threads: 1,
          serverPid: server!.child.pid,
        });
    // A warm-up of both, not measured.
    await interleave({ apps: measure(SPREAD, TRACKS_PER_APP, APPS), one: measure(SINGLE, 1, 0) }, Math.min(4, SECONDS));
    const rows: Array<Record<string, string | number>> = [];
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const result = await interleave(
        { apps: measure(SPREAD, TRACKS_PER_APP, APPS), one: measure(SINGLE, 1, 0) },
        SECONDS,
        round % 2 === 0,
      );
      for (const [label, run] of Object.entries(result)) {
        if (run.errorCount > 0) failures.push(`round ${round}, ${label}: ${JSON.stringify(run.errors)}`);
      }
      const ratio = sliceRatio(result.apps, result.one);
      ratios.push(ratio);
      console.log(`  round ${round} ratios: (apps) ${ratio.toFixed(3)}`);
      rows.push({
        round: String(round),
        '100 apps × 10 tracks req/s': result.apps.rps.toFixed(0),
        'one app, one track req/s': result.one.rps.toFixed(0),
        'apps p99 ms': (result.apps.p99Ms ?? 0).toFixed(2),
        ratio,
      });
    }
    printTable(rows);
    const med = median(ratios);
    console.log(`\nmedian ratio ${med.toFixed(3)} (target ≥ 0.9: ${med >= 0.9 ? 'met' : 'NOT met'})`);
    for (const failure of failures) console.error(`FAILED: ${failure}`);
    return failures.length > 0 ? 1 : 0;
  } finally {
    if (server) await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
