// A child of bench:manifest (manifest-servers.ts): the built server (dist/, what `ferry-server` and
// an installed @ferry/server run), in plain Node with no TypeScript loader, so the benchmark measures
// the code a team deploys. Arguments: port, DATA_DIR, release token. A restart keeps the port.
import path from 'node:path';

const [port, dataDir, token] = process.argv.slice(2);
const [{ buildApp }, { loadConfig }, { tuneHeapForServing }] = await Promise.all([
  import('../../dist/app.js'),
  import('../../dist/config/config.js'),
  import('../../dist/serving-heap.js'),
]);
// What `ferry-server` does before it builds the app (src/main.ts); bench:server-starts also runs
// starts without it (BENCH_HEAP_TUNING=off) to show what it changes.
if (process.env.BENCH_HEAP_TUNING !== 'off') tuneHeapForServing();
const config = loadConfig({
  PORT: port,
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  // An updates-only instance: the certificate area's development defaults would run vendor
  // simulators and sweeps in the same process.
  FERRY_AREAS: 'ota',
  OTA_RELEASE_TOKEN: token,
  OTA_SIGNING_KEY_PATH: path.join(dataDir, 'signing-key.pem'),
  OTA_SIGNING_CERT_PATH: path.join(dataDir, 'signing-cert.pem'),
  OBJECT_URL_SIGNING_SECRET: 'bench-object-url-signing-secret-0123456789',
  // The set-up and each round publish 1,000 releases within seconds; the release endpoints'
  // default limit (120 per minute per token) would answer most of them 429.
  RELEASE_RATE_LIMIT_PER_MINUTE: '1000000',
  // bench:apps serves apps other than the default one: their keys are sealed with this secret.
  ...(process.env.APP_KEYS_SECRET ? { APP_KEYS_SECRET: process.env.APP_KEYS_SECRET } : {}),
  // (e) also starts instances without the start-up warm-up, to show what it changes.
  ...(process.env.BENCH_WARM_UP ? { MANIFEST_WARM_UP_REQUESTS: process.env.BENCH_WARM_UP } : {}),
  // bench:idle-tracks shortens the TTL and the stale-if-error limit, so an idle hour takes seconds.
  ...(process.env.BENCH_CACHE_TTL_SECONDS ? { MANIFEST_CACHE_TTL_SECONDS: process.env.BENCH_CACHE_TTL_SECONDS } : {}),
  ...(process.env.BENCH_STALE_IF_ERROR_SECONDS
    ? { MANIFEST_STALE_IF_ERROR_SECONDS: process.env.BENCH_STALE_IF_ERROR_SECONDS }
    : {}),
});
const app = await buildApp({ config });
await app.listen({ port: Number(port), host: '127.0.0.1' });
// Started as a load balancer sees it: once /readyz would answer, the cache loaded and warm.
await app.startupWork.start();
const stop = () => void app.close().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('disconnect', stop);
process.send?.('listening');
