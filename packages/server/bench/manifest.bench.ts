/**
 * bench:manifest — the manifest hot path under load, with autocannon (50 connections, 10 s each):
 *   (a) the signed manifest of an existing track,
 *   (b) the 204 path (the app already runs the newest update),
 *   (c) a bare node:http server answering a fixed buffer of the size of (a): the baseline.
 * Every server runs in a child process of its own, so the load generator never shares its event
 * loop. Targets on a 2-core machine: (a)/(c) req/s ≥ 0.6 and p99 of (a) ≤ 25 ms.
 * BENCH_DURATION_SECONDS and BENCH_CONNECTIONS override the defaults.
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { updateAssetKey } from '../src/storage/objects/object-key.js';
import { printTable } from './bench-stats.js';

const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const RATIO_TARGET = 0.6;
const P99_TARGET_MS = 25;
const TRACK = { platform: 'ios', runtimeVersion: '4.2.0(420)', channel: 'production' } as const;
const MANIFEST_HEADERS = {
  accept: 'multipart/mixed,application/expo+json,application/json',
  'expo-protocol-version': '1',
  'expo-platform': TRACK.platform,
  'expo-runtime-version': TRACK.runtimeVersion,
  'expo-channel-name': TRACK.channel,
  'expo-expect-signature': 'sig, keyid="main", alg="rsa-v1_5-sha256"',
};

type Ready = { port: number; bytes?: number; releaseId?: string };

/** Child role: the Ferry server with one published release, logging at warn. */
async function serveFerry(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-'));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    OTA_RELEASE_TOKEN: 'bench-release-token-0123456789',
  });
  const app = await buildApp({ config, logger: pino({ level: 'warn' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const hash = (s: string) => Buffer.from(s.padEnd(32, '.')).toString('base64url').slice(0, 43);
  const asset = (name: string, i: number) => ({
    url: `http://127.0.0.1:${port}/objects/updates/production/4.2.0(420)/assets/${hash(`${name}${i}`)}`,
    hash: hash(`${name}${i}`),
    key: `${i}`.padStart(32, '0'),
    contentType: 'image/png',
    fileExtension: '.png',
  });
  const launchAsset = { ...asset('bundle', 0), contentType: 'application/javascript', fileExtension: '.bundle' };
  // A typical app: a few dozen images and fonts.
  const assets = Array.from({ length: 30 }, (_, i) => asset('asset', i));
  // The release endpoint only accepts assets that are stored.
  for (const { hash: assetHash, contentType } of [launchAsset, ...assets]) {
    const key = updateAssetKey(TRACK.channel, TRACK.runtimeVersion, assetHash);
    await app.objectStore.put(key, Buffer.from(assetHash), { contentType });
  }
  const publish = await app.inject({
    method: 'POST',
    url: '/api/updates/release',
    headers: { authorization: 'Bearer bench-release-token-0123456789' },
    payload: {
      ...TRACK,
      launchAsset,
      assets,
      otaConfig: { name: 'Bench', slug: 'bench', scheme: 'bench', version: '4.2.0', ios: { bundleIdentifier: 'x.y' } },
      updatePolicy: 2,
    },
  });
  const releaseId = publish.json().release.id as string;
  const sample = await app.inject({ method: 'GET', url: '/api/updates/manifest', headers: MANIFEST_HEADERS });
  process.send?.({ port, bytes: sample.rawPayload.length, releaseId } satisfies Ready);
  process.on('disconnect', () => {
    void app.close().finally(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

/** Child role: node:http answering the same number of bytes, the floor any framework adds to. */
async function serveBare(bytes: number): Promise<void> {
  const body = Buffer.alloc(bytes, 'x');
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'multipart/mixed; boundary=x', 'content-length': body.length });
    response.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as { port: number }).port } satisfies Ready);
  });
  process.on('disconnect', () => server.close(() => process.exit(0)));
}

function startChild(role: string, arg = ''): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(fileURLToPath(import.meta.url), [role, arg], {
    execArgv: ['--conditions=@ferry/source', '--import', 'tsx'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as Ready }));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

async function load(name: string, url: string, headers: Record<string, string>, expectStatus: number) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  const wrong = result.non2xx + result.errors + result.timeouts;
  if (result['2xx'] === 0 || (expectStatus === 200 && wrong > 0)) {
    throw new Error(`${name}: ${result['2xx']} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return {
    case: name,
    'req/s': result.requests.average,
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'bytes/resp': Math.round(result.throughput.total / Math.max(1, result.requests.total)),
    errors: wrong,
  };
}

async function main(): Promise<void> {
  console.error(`bench:manifest: ${CONNECTIONS} connections, ${DURATION} s per case, ${os.cpus().length} CPUs`);
  const ferry = await startChild('serve-ferry');
  const bytes = ferry.ready.bytes!;
  const bare = await startChild('serve-bare', String(bytes));
  try {
    const ferryUrl = `http://127.0.0.1:${ferry.ready.port}/api/updates/manifest`;
    // Warm-up: the first request signs and caches; JIT settles.
    await autocannon({ url: ferryUrl, connections: 10, duration: 2, headers: MANIFEST_HEADERS });
    const bareUrl = `http://127.0.0.1:${bare.ready.port}/`;
    // The baseline gets the same request headers (the load generator's cost per request is then the
    // same) and runs before and after; the better of the two is used, so a neighbour's burst of load
    // during one baseline run cannot flatter the ratio.
    const before = await load('(c) bare node:http, same size, before', bareUrl, MANIFEST_HEADERS, 200);
    const manifest = await load('(a) manifest, existing track', ferryUrl, MANIFEST_HEADERS, 200);
    const noUpdate = await load(
      '(b) 204, app runs the newest',
      ferryUrl,
      { ...MANIFEST_HEADERS, 'expo-current-update-id': ferry.ready.releaseId! },
      204,
    );
    const after = await load('(c) bare node:http, same size, after', bareUrl, MANIFEST_HEADERS, 200);
    printTable([manifest, noUpdate, before, after]);
    const ratio = manifest['req/s'] / Math.max(before['req/s'], after['req/s']);
    console.log();
    printTable([
      {
        'manifest size (bytes)': bytes,
        'ratio (a)/(c) req/s': ratio,
        target: `≥ ${RATIO_TARGET}`,
        'p99 (a) ms': manifest['p99 ms'],
        'p99 target ms': P99_TARGET_MS,
      },
    ]);
    const ok = ratio >= RATIO_TARGET && manifest['p99 ms'] <= P99_TARGET_MS;
    console.log(`\ntargets met: ${ok ? 'yes' : 'NO'} (other processes on this machine share the CPU)`);
  } finally {
    ferry.child.disconnect();
    bare.child.disconnect();
  }
}

const [role, arg] = process.argv.slice(2);
if (role === 'serve-ferry') await serveFerry();
else if (role === 'serve-bare') await serveBare(Number(arg));
else await main();
