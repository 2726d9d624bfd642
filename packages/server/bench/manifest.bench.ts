/**
 * bench:manifest — the manifest hot path under load. Each case is a ratio to a baseline measured in
 * the same round:
 *   (a) the signed manifest of one warm track (multipart, expo-* headers, a signature asked for)
 *       against bare node:http sending Ferry's own answer (same bytes, same headers).
 *       Targets: ratio ≥ 0.8 and Ferry p99 ≤ 25 ms;
 *   (b) the app already runs the newest release (a signed noUpdateAvailable) against the same bare
 *       run; informational;
 *   (c) 1,000 tracks, each given a new release just before the run (publishing is not timed),
 *       requests spread round robin over them, against one warm track measured next to (d) on the
 *       same instance. Target ≥ 0.8;
 *   (d) the same 1,000 tracks again right after (c), warm, against that same one-track run
 *       (the two interleaved, see below). Target ≥ 0.9;
 *   (e) the 1,000 tracks on an instance started a moment ago (SIGTERM, wait for the exit, a new
 *       process on the same DATA_DIR and port), against one track on that same instance measured
 *       right after: both sides then run in the same process, and what separates them is the
 *       cold start (code, caches) that (e) runs into. Each round restarts the instance
 *       RESTARTS_PER_ROUND times and measures one slice of each right after every start; the
 *       round's ratio is the median over the restarts. Target ≥ 0.8. As many starts without the
 *       start-up warm-up (MANIFEST_WARM_UP_REQUESTS=0), alternating with them, show what it changes;
 *   (f) three fresh 5 MiB JavaScript bundles, uploaded and published each round: the median first
 *       GET with `accept-encoding: br` (whole body, a connection of its own, made and timed by curl
 *       as a process of its own, curl-download.ts) against the median of three repeats of each.
 *       A 5 MiB bundle published at set-up is fetched three times before,
 *       so the firsts are not the first large downloads of the process (in the round after (e),
 *       of a process started a moment ago): what separates first from repeat is then the bundle
 *       being new, not code the process has not run yet. Target: first ≤ 1.2 × repeat.
 *
 * How, and why:
 * - The load generator is wrk (C, epoll; `apt-get install -y wrk`), because autocannon (Node) was
 *   itself the bottleneck on 2 cores. wrk runs 1 thread: on the 2-core machine it takes one core
 *   and leaves the other to the server's event loop; a second thread would take CPU from the
 *   server it measures. Each run prints the share of a core wrk and the server used: wrk well
 *   below 1 means it was not the limit, a server well below 1 that something else had the CPU.
 * - Every request is built by wrk/manifest.lua, for one track and for 1,000 alike, so both sides
 *   of a ratio pay the same load-generator cost; its done() prints the JSON line wrk-runner.ts
 *   parses.
 * - Ferry (buildApp from dist/, as `ferry-server` runs it, with SQLite and local objects in a temp
 *   DATA_DIR) and bare Node each run in a plain Node child process (manifest-servers.ts); this
 *   process builds dist/ first (tsc -b, incremental), then only orchestrates, publishes and runs wrk.
 * - Everything is published through the HTTP API as `ferry publish` does (publish-over-http.ts),
 *   so the benchmark holds whatever the server does inside.
 * - After a warm-up, every round runs bare Node, (a), (b), (g), (h) and (i) interleaved, then (c)–(f),
 *   (d) interleaved with its one-track baseline. Interleaved cases run in slices of about 2 s
 *   (interleaved-runs.ts): every case once in order, then once in reverse, and so on, so each
 *   gets its share of the seconds whatever the VM's speed did meanwhile (it moves by tens of
 *   percent within a minute here); a ratio of two interleaved cases is the median over slices of
 *   their rates in the same slice (sliceRatio). Ratios are taken within a round; the table gives
 *   their median and range over the rounds, and ✓/✗ compare the median. The 1-minute load
 *   average before and after says how busy the machine was.
 * - Targets are printed, not enforced. The exit code is 1 only when wrk or curl is missing, a server did
 *   not start, a wrk run saw socket errors, timeouts or statuses ≥ 400, or an answer checked on
 *   the side was wrong (the manifest before the runs, the newest release of a republished track
 *   after (d), the bundle GETs).
 *   (g) a track whose newest release is rolled out to 50 % (with a halt rule), 1,000 devices each
 *       sending its EAS-Client-ID: about half get the new release, half the fallback; against bare
 *       Node. Target ≥ 0.6;
 *   (h) the one track of (a), 1,000 devices each sending its client id and the older release it
 *       runs: every request is also a device report (adoption); against (a). Target ≥ 0.9 (counting
 *       costs at most 10 %).
 *   (i) the one track of (a) while 5 release consoles are open on the same instance, each with its
 *       live-updates stream and reloading the track list every second (open-consoles.ts); against
 *       bare Node. Target (issue 19) ≥ 0.6.
 * BENCH_DURATION_SECONDS (10), BENCH_CONNECTIONS (50) and BENCH_ROUNDS (3) override the defaults.
 */

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { freePort } from '../../../scripts/free-port.js';
import { median, printTable } from './bench-stats.js';
import { curlAvailable, curlDownload, type Download } from './curl-download.js';
import { interleave, interleavedOf, type Run, sliceRatio, slicesOf } from './interleaved-runs.js';
import { buildServer, type Server, startServer, stopServer, writeSigningKey } from './manifest-servers.js';
import { createViewerToken, openConsoles } from './open-consoles.js';
import { type File, fileOf, get, javascriptBundle, Publisher } from './publish-over-http.js';
import { runWrk, type WrkResult, wrkAvailable } from './wrk-runner.js';

const LUA = fileURLToPath(new URL('./wrk/manifest.lua', import.meta.url));
const SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const WARMUP_SECONDS = Math.min(3, SECONDS);
/** (e): starts per round, each followed by a slice of 1,000 tracks and one of one track (as many slices as an interleaved case). */
const RESTARTS_PER_ROUND = slicesOf(SECONDS).slices;
const THREADS = 1;
const TOKEN = 'bench-release-token-0123456789';
/** Runtime versions are <prefix><i>, as wrk/manifest.lua builds them: 2.0.0, and 1.0.0 … 1.0.999. */
const SINGLE = '2.0.';
const SPREAD = '1.0.';
const TRACKS = 1000;
const BUNDLE_TRACK = '3.0.0';
const BUNDLE_BYTES = 5 * 1024 * 1024;
const SETUP_CONCURRENCY = 16;

const manifestHeaders = (runtimeVersion: string, currentUpdateId?: string): Record<string, string> => ({
  accept: 'multipart/mixed,application/expo+json,application/json',
  'expo-protocol-version': '1',
  'expo-platform': 'ios',
  'expo-runtime-version': runtimeVersion,
  'expo-channel-name': 'production',
  'expo-expect-signature': 'sig, keyid="main", alg="rsa-v1_5-sha256"',
  ...(currentUpdateId ? { 'expo-current-update-id': currentUpdateId } : {}),
});

const failures: string[] = [];
let wrkCoresMax = 0;
const fixed = (n: number | undefined, digits: number) => (n === undefined ? '?' : n.toFixed(digits));

/**
 * One wrk run of wrk/manifest.lua: one track (count 1) or the spread; `id` is the update the apps
 * say they run (the newest: up to date); `devices` gives the requests that many EAS-Client-IDs.
 */
function measure(server: Server, prefix: string, count: number, id?: string, devices = 0): Run {
  return (seconds) =>
    runWrk({
      url: `${server.url}/api/updates/manifest`,
      script: LUA,
      scriptArgs: [prefix, String(count), id ?? '-', String(devices)],
      seconds,
      connections: CONNECTIONS,
      threads: THREADS,
      serverPid: server.child.pid,
    });
}

/** Prints a case's result (one run, or its interleaved slices combined) and records its errors. */
function report(label: string, result: WrkResult): WrkResult {
  wrkCoresMax = Math.max(wrkCoresMax, result.wrkCores ?? 0);
  const errors = result.errorCount > 0 ? `  ERRORS ${JSON.stringify(result.errors)}` : '';
  if (errors) failures.push(`${label}: ${JSON.stringify(result.errors)} in ${result.requests} requests`);
  console.error(
    `  ${label.padEnd(36)} ${fixed(result.rps, 0).padStart(6)} req/s  p50 ${fixed(result.p50Ms, 2)} ms  ` +
      `p99 ${fixed(result.p99Ms, 2)} ms  cores: server ${fixed(result.serverCores, 2)}, wrk ${fixed(result.wrkCores, 2)}${errors}`,
  );
  return result;
}

/** One uninterrupted run of a case, printed. */
const load = async (label: string, run: Run, seconds = SECONDS) => report(label, await run(seconds));

/** Fresh bundles per round in (f), and repeat downloads of each: single GETs of a few ms are noisy. */
const BUNDLES_PER_ROUND = 3;
const REPEATS = 3;

/**
 * (f): fresh 5 MiB bundles uploaded and published in one release, then each fetched with brotli
 * allowed: once (the first download, right after the publish) and REPEATS times more. The ratio is
 * the median first download over the median repeat.
 */
async function bundleRound(publisher: Publisher, round: number, images: File[], warmUrl: string) {
  const bundles = Array.from({ length: BUNDLES_PER_ROUND }, () => javascriptBundle(BUNDLE_BYTES));
  const files = [...bundles, ...images];
  const started = performance.now();
  const urls = await publisher.upload(BUNDLE_TRACK, files);
  const uploadMs = (performance.now() - started) / BUNDLES_PER_ROUND;
  await publisher.publish(BUNDLE_TRACK, files, urls, `bundle-${round}`);
  // A bundle of the same size first, so the first timed GET is not also this process's first.
  for (let i = 0; i < REPEATS; i++) await curlDownload(warmUrl, { 'accept-encoding': 'br' });
  const bundleUrls = bundles.map((bundle) => urls.get(bundle.hash)!);
  const firsts: Download[] = [];
  for (const url of bundleUrls) firsts.push(await curlDownload(url, { 'accept-encoding': 'br' }));
  const repeats: Download[] = [];
  for (let i = 0; i < REPEATS; i++)
    for (const url of bundleUrls) repeats.push(await curlDownload(url, { 'accept-encoding': 'br' }));
  for (const [n, answer] of [...firsts, ...repeats].entries()) {
    if (answer.status !== 200) failures.push(`(f) round ${round}, bundle GET ${n + 1}: status ${answer.status}`);
  }
  const encodings = new Set([...firsts, ...repeats].map((answer) => answer.encoding));
  const first = median(firsts.map((answer) => answer.ms));
  const repeat = median(repeats.map((answer) => answer.ms));
  return {
    round: String(round),
    'upload ms per bundle': fixed(uploadMs, 1),
    'first GET ms (median)': fixed(first, 1),
    'repeat GET ms (median)': fixed(repeat, 1),
    'first/repeat': first / repeat,
    encoding: [...encodings].join(', '),
    'bytes sent': String(repeats[0]!.bytes),
  };
}

type Case = 'a' | 'b' | 'c' | 'd' | 'e' | 'e0' | 'g' | 'h' | 'i';
/** (i): release consoles open while devices check. */
const CONSOLES = 5;
/** (g): a track whose newest release is rolled out to half its devices; (h) devices that report. */
const ROLLOUT_TRACK = '4.0.';
const DEVICES = 1000;

async function main(): Promise<number> {
  if (!wrkAvailable() || !curlAvailable()) {
    console.error('bench:manifest needs wrk and curl: apt-get install -y wrk curl');
    return 1;
  }
  const loadBefore = os.loadavg()[0]!;
  const { slices, sliceSeconds } = slicesOf(SECONDS);
  console.log(
    `bench:manifest: wrk ${THREADS} thread, ${CONNECTIONS} connections, ${SECONDS} s per run ` +
      `(interleaved cases: ${slices} slices of ${sliceSeconds} s), ${ROUNDS} rounds; ` +
      `${os.cpus().length} CPUs; load average (1 min) before: ${loadBefore.toFixed(2)}`,
  );
  buildServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-manifest-'));
  const servers: Server[] = [];
  try {
    writeSigningKey(dataDir);
    const ferryPort = await freePort();
    let ferry = await startServer('ferry', ferryPort, [dataDir, TOKEN]);
    servers.push(ferry);
    const publisher = new Publisher(ferry.url, TOKEN);

    // Set-up: every track gets a ~2 KB launch asset of its own and two shared images.
    const started = performance.now();
    const limit = pLimit(SETUP_CONCURRENCY);
    const images = [fileOf(randomBytes(1500), 'image/png', '.png'), fileOf(randomBytes(3000), 'image/png', '.png')];
    const spread = Array.from({ length: TRACKS }, (_, i) => `${SPREAD}${i}`);
    const tracks = new Map<string, { files: File[]; urls: Map<string, string>; id: string }>();
    const setUp = async (version: string) => {
      const files = [javascriptBundle(2048), ...images];
      const urls = await publisher.upload(version, files);
      tracks.set(version, { files, urls, id: await publisher.publish(version, files, urls, 'setup') });
    };
    await Promise.all([`${SINGLE}0`, ...spread].map((version) => limit(() => setUp(version))));
    console.log(
      `set-up: ${tracks.size} tracks uploaded (3 assets each) and published through the API in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s, ${SETUP_CONCURRENCY} tracks at a time`,
    );
    const single = tracks.get(`${SINGLE}0`)!;
    const republish = (round: number) =>
      Promise.all(
        spread.map((version) => {
          const { files, urls } = tracks.get(version)!;
          return limit(() => publisher.publish(version, files, urls, `round-${round}`));
        }),
      );

    // (g): a stable release, then one rolled out to half the devices (with a halt rule, as teams use it).
    const rolloutFiles = [javascriptBundle(2048), ...images];
    const rolloutUrls = await publisher.upload(`${ROLLOUT_TRACK}0`, rolloutFiles);
    await publisher.publish(`${ROLLOUT_TRACK}0`, rolloutFiles, rolloutUrls, 'stable');
    const stagedFiles = [javascriptBundle(2048), ...images];
    const stagedUrls = await publisher.upload(`${ROLLOUT_TRACK}0`, stagedFiles);
    await publisher.publish(`${ROLLOUT_TRACK}0`, stagedFiles, stagedUrls, 'staged', {
      rollout: { percent: 50, haltRule: { failureRate: 0.5, minDevices: 1_000_000 } },
    });
    // (f): a bundle of the size it measures, published once, fetched before each round's firsts.
    const warmBundle = javascriptBundle(BUNDLE_BYTES);
    const warmFiles = [warmBundle, ...images];
    const warmUrls = await publisher.upload(BUNDLE_TRACK, warmFiles);
    await publisher.publish(BUNDLE_TRACK, warmFiles, warmUrls, 'warm-bundle');
    const warmBundleUrl = warmUrls.get(warmBundle.hash)!;
    // (h): the apps run an older release of the single track, so each check is a report and an update.
    const older = await publisher.publish(`${SINGLE}0`, single.files, single.urls, 'older');
    single.id = await publisher.publish(`${SINGLE}0`, single.files, single.urls, 'newest');

    // Ferry's answer, checked, and served as it is by the bare server.
    const sample = await get(`${ferry.url}/api/updates/manifest`, manifestHeaders(`${SINGLE}0`));
    const noUpdate = await get(`${ferry.url}/api/updates/manifest`, manifestHeaders(`${SINGLE}0`, single.id));
    const contentType = String(sample.headers['content-type']);
    // Up to date, an expo-updates client accepting multipart gets the signed noUpdateAvailable directive.
    if (
      sample.status !== 200 ||
      !contentType.startsWith('multipart/mixed') ||
      noUpdate.status !== 200 ||
      !noUpdate.body.includes('"type":"noUpdateAvailable"')
    ) {
      throw new Error(`unexpected manifest answers: ${sample.status} ${contentType}, then ${noUpdate.status}`);
    }
    const dropped = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
    const headers = Object.fromEntries(
      Object.entries(sample.headers).flatMap(([k, v]) => (dropped.has(k) || v === undefined ? [] : [[k, String(v)]])),
    );
    const consoleToken = createViewerToken(dataDir);
    const bare = await startServer('bare', await freePort(), [], { headers, body: sample.body.toString('base64') });
    servers.push(bare);
    console.log(
      `manifest answer: ${sample.body.length} bytes of ${contentType.split(';')[0]}; bare node:http sends it too`,
    );

    console.error('warm-up');
    await load('bare node:http', measure(bare, SINGLE, 1), WARMUP_SECONDS);
    await load('Ferry, one track', measure(ferry, SINGLE, 1), WARMUP_SECONDS);
    await load('Ferry, 204', measure(ferry, SINGLE, 1, single.id), WARMUP_SECONDS);
    await load('Ferry, 1,000 tracks', measure(ferry, SPREAD, TRACKS), WARMUP_SECONDS);
    await load('Ferry, rollout', measure(ferry, ROLLOUT_TRACK, 1, undefined, DEVICES), WARMUP_SECONDS);
    await load('Ferry, reporting devices', measure(ferry, SINGLE, 1, older, DEVICES), WARMUP_SECONDS);

    const ratios: Record<Case | 'f', number[]> = {
      a: [],
      b: [],
      c: [],
      d: [],
      e: [],
      e0: [],
      f: [],
      g: [],
      h: [],
      i: [],
    };
    const runs: Record<Case, WrkResult[]> = { a: [], b: [], c: [], d: [], e: [], e0: [], g: [], h: [], i: [] };
    const publishSeconds: number[] = [];
    const bundles: Array<Record<string, string | number>> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      console.error(`round ${round} of ${ROUNDS}`);
      // The cases a ratio compares run in interleaved slices (interleaved-runs.ts), starting in
      // reverse order in even rounds: drift within a round favours none of them.
      const reverse = round % 2 === 0;
      // (i): the consoles are open during (i)'s slices only; their reloads are counted over all of them.
      const reloads = { polls: 0, failures: 0 };
      const withConsoles: Run = async (seconds) => {
        const consoles = await openConsoles(ferry.url, consoleToken, CONSOLES);
        try {
          return await measure(ferry, SINGLE, 1)(seconds);
        } finally {
          await consoles.close();
          reloads.polls += consoles.polls();
          reloads.failures += consoles.failures();
        }
      };
      const one = await interleave(
        {
          base: measure(bare, SINGLE, 1),
          a: measure(ferry, SINGLE, 1),
          b: measure(ferry, SINGLE, 1, single.id),
          g: measure(ferry, ROLLOUT_TRACK, 1, undefined, DEVICES),
          h: measure(ferry, SINGLE, 1, older, DEVICES),
          i: withConsoles,
        },
        SECONDS,
        reverse,
      );
      report('(a) baseline: bare node:http', one.base);
      const a = report('(a) Ferry, one warm track', one.a);
      const b = report('(b) Ferry, up to date', one.b);
      const g = report('(g) Ferry, rollout at 50 %', one.g);
      const h = report('(h) Ferry, 1,000 devices reporting', one.h);
      const i = report(`(i) Ferry, ${CONSOLES} consoles open`, one.i);
      if (reloads.failures > 0 || reloads.polls === 0)
        failures.push(`(i) round ${round}: ${reloads.polls} console reloads, ${reloads.failures} failed`);

      // (c) right after a new release on each of the 1,000 tracks (not timed in the ratio), then (d).
      const publishStarted = performance.now();
      const newest = await republish(round);
      publishSeconds.push((performance.now() - publishStarted) / 1000);
      const c = await load('(c) Ferry, 1,000 just published', measure(ferry, SPREAD, TRACKS));
      // (c) and (d) against one warm track measured next to them, on the same instance, (d) and
      // that track interleaved: a machine's speed drifts more than these targets' margins in a minute.
      const near = await interleave(
        { d: measure(ferry, SPREAD, TRACKS), one: measure(ferry, SINGLE, 1) },
        SECONDS,
        reverse,
      );
      const d = report('(d) Ferry, 1,000 warm', near.d);
      const oneTrack = report('(c)/(d) baseline: one warm track', near.one);
      // The tracks answered with this round's releases: an app that runs the last one is up to date.
      const last = await get(`${ferry.url}/api/updates/manifest`, manifestHeaders(spread.at(-1)!, newest.at(-1)));
      if (!last.body.includes('"type":"noUpdateAvailable"'))
        failures.push(`round ${round}: the newest release of 1.0.999 is not served`);

      // (e): pairs of slices, each on an instance started a moment before, the 1,000 tracks first
      // (the new process's first requests), then one track, so both sides of a ratio see the same
      // moment of the machine; whole 10 s runs would compare two moments of a shared VM.
      // The same without the start-up warm-up (MANIFEST_WARM_UP_REQUESTS=0), alternating with it,
      // shows what the warm-up changes; the last start has it, as deployed, for (f).
      const restarted: Record<'e' | 'one' | 'cold' | 'coldOne', WrkResult[]> = {
        e: [],
        one: [],
        cold: [],
        coldOne: [],
      };
      for (let pair = 0; pair < 2 * RESTARTS_PER_ROUND; pair++) {
        const warm = pair % 2 === 1;
        await stopServer(ferry);
        ferry = await startServer('ferry', ferryPort, [dataDir, TOKEN], undefined, warm ? {} : { BENCH_WARM_UP: '0' });
        servers.push(ferry);
        restarted[warm ? 'e' : 'cold'].push(await measure(ferry, SPREAD, TRACKS)(sliceSeconds));
        restarted[warm ? 'one' : 'coldOne'].push(await measure(ferry, SINGLE, 1)(sliceSeconds));
      }
      const e = interleavedOf(restarted.e);
      const eBase = interleavedOf(restarted.one);
      const cold = interleavedOf(restarted.cold);
      const coldOne = interleavedOf(restarted.coldOne);
      report('(e) Ferry restarted, 1,000', e);
      report('(e) baseline: restarted, one track', eBase);
      report('(e) without warm-up, 1,000', cold);
      report('(e) without warm-up, one track', coldOne);

      const bundle = await bundleRound(publisher, round, images, warmBundleUrl);
      bundles.push(bundle);
      console.error(
        `  (f) 5 MiB bundles, br: first GET ${bundle['first GET ms (median)']} ms, repeat ${bundle['repeat GET ms (median)']} ms`,
      );

      for (const [k, run] of Object.entries({ a, b, c, d, e, e0: cold, g, h, i })) runs[k as Case].push(run);
      ratios.i.push(sliceRatio(one.i, one.base));
      ratios.g.push(sliceRatio(one.g, one.base));
      ratios.h.push(sliceRatio(one.h, one.a));
      ratios.a.push(sliceRatio(one.a, one.base));
      ratios.b.push(sliceRatio(one.b, one.base));
      ratios.c.push(c.rps / oneTrack.rps);
      ratios.d.push(sliceRatio(near.d, near.one));
      ratios.e.push(sliceRatio(e, eBase));
      ratios.e0.push(sliceRatio(cold, coldOne));
      ratios.f.push(bundle['first/repeat']);
      console.error(
        `  round ${round} ratios: ${(['a', 'c', 'd', 'e', 'e0', 'g', 'h', 'i'] as const).map((k) => `(${k}) ${ratios[k].at(-1)!.toFixed(3)}`).join(', ')}`,
      );
    }

    const row = (name: string, k: Case | 'f', against: string, target: string, met: (x: number) => boolean) => {
      const xs = ratios[k];
      const ferryRuns = k === 'f' ? [] : runs[k];
      const p99 = ferryRuns.length ? median(ferryRuns.map((r) => r.p99Ms)) : undefined;
      return {
        case: name,
        against,
        'ratio median': median(xs),
        'ratio min–max': `${fixed(Math.min(...xs), 3)}–${fixed(Math.max(...xs), 3)}`,
        target,
        met: target === '' ? '' : met(median(xs)) ? '✓' : '✗',
        'Ferry req/s': ferryRuns.length ? fixed(median(ferryRuns.map((r) => r.rps)), 0) : '',
        'Ferry p99 ms': fixed(p99, 2).replace('?', ''),
        'p99 ≤ 25 ms': k === 'a' ? (p99! <= 25 ? '✓' : '✗') : '',
      };
    };
    console.log();
    printTable([
      row('(a) one warm track, signed', 'a', 'bare node:http', '≥ 0.8', (x) => x >= 0.8),
      row('(b) up to date (noUpdateAvailable)', 'b', 'bare node:http', '', () => true),
      row('(c) 1,000 just-published tracks', 'c', 'one warm track, next to it', '≥ 0.8', (x) => x >= 0.8),
      row('(d) 1,000 tracks, warm', 'd', 'one warm track, interleaved', '≥ 0.9', (x) => x >= 0.9),
      row('(e) 1,000 tracks, just started', 'e', 'one track, same instance', '≥ 0.8', (x) => x >= 0.8),
      row('(e) the same, no start-up warm-up', 'e0', 'one track, same instance', '', () => true),
      row('(f) 5 MiB bundle, br: first GET', 'f', 'repeat GET', '≤ 1.2', (x) => x <= 1.2),
      row('(g) rollout at 50 %, 1,000 devices', 'g', 'bare node:http', '≥ 0.6', (x) => x >= 0.6),
      row('(h) 1,000 devices reporting', 'h', '(a)', '≥ 0.9', (x) => x >= 0.9),
      row(`(i) one track, ${CONSOLES} consoles open`, 'i', 'bare node:http', '≥ 0.6', (x) => x >= 0.6),
    ]);
    console.log();
    printTable(bundles);
    console.log(
      `\npublishing 1,000 releases before each (c): ${publishSeconds.map((s) => `${s.toFixed(1)} s`).join(', ')}` +
        `\nratios, within a round: interleaved cases, the median over slices of req/s over req/s in the same slice; ` +
        `(c), req/s over req/s of runs next to each other; (e), the median over restarts of the first slice over the next; ` +
        `(f), median ms over median ms` +
        `\n✓/✗ compare the median over rounds; Ferry req/s and p99: medians over rounds (p99: the worst slice)` +
        `\nwrk used at most ${wrkCoresMax.toFixed(2)} of a core in any run` +
        `\n${os.cpus().length} CPUs; load average (1 min) before: ${loadBefore.toFixed(2)}, after: ${os.loadavg()[0]!.toFixed(2)}`,
    );
  } finally {
    await Promise.all(servers.map(stopServer));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(`\nruns with errors:\n  ${failures.join('\n  ')}`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench:manifest failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
