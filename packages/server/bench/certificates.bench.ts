/**
 * bench:certificates — 200 concurrent users through complete two-step issuances (first call,
 * approval after 1 s, second call until issued, PDF download) against both vendor simulators, on
 * SQLite and PostgreSQL. It reports completions, Ferry's own time per call (the request's time
 * minus the time spent waiting for the vendor) and the server's largest event-loop delay.
 * Users arrive spread over the first second, so all 200 flows are in flight together.
 * `cpu ms/call` is this process's CPU time during the run divided by the certificate calls: unlike
 * latency it does not grow when other programs compete for the machine. Baseline of the ratio: the same 200 users reading their assignment (token check + one row),
 * measured in the same process against the same server. Target: overhead p99 ≤ 10 ms.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { createTestDatabase, type EngineName, type TestDatabase } from '../test/support/engines.js';
import { percentile, printTable } from './bench-stats.js';
import type { LoadMessage, LoadReport } from './certificate-load.js';

const USERS = Number(process.env.BENCH_USERS ?? 200);
const APPROVAL_DELAY_MS = 1000;
const TARGET_P99_MS = 10;

const load = fork(fileURLToPath(new URL('./certificate-load.ts', import.meta.url)), [], {
  execArgv: ['--import', 'tsx'],
  env: { ...process.env, BENCH_APPROVAL_DELAY_MS: String(APPROVAL_DELAY_MS) },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const nextReport = () => new Promise<LoadReport>((resolve) => load.once('message', (m: LoadReport) => resolve(m)));
const ready = await nextReport();
if (ready.type !== 'ready') throw new Error('the load process did not start');
const vendorEnv = ready.env;

async function run(message: LoadMessage): Promise<Extract<LoadReport, { type: 'done' }>> {
  const report = nextReport();
  load.send(message);
  const done = await report;
  if (done.type !== 'done') throw new Error('unexpected report');
  return done;
}

const summarize = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? Number.NaN };
};

async function bench(database: TestDatabase) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-cert-'));
  const secret = randomBytes(32).toString('base64url');
  const aesKey = randomBytes(32).toString('base64');
  const config = {
    ...loadConfig({
      PORT: '0',
      DATA_DIR: dataDir,
      OTA_RELEASE_TOKEN: randomBytes(24).toString('base64url'),
      CERT_AES_KEY: aesKey,
      AUTH_JWT_SECRET: secret,
      // The benchmark's users are many distinct people; the per-user limit never applies, but
      // keep it far away so a retry storm cannot make it apply.
      CERT_RATE_LIMIT_PER_MINUTE: '1000000',
      ...vendorEnv,
    }),
    database: database.target,
  };
  const app = await buildApp({ config, logger: pino({ level: 'warn' }) });
  const samples: Record<'issue' | 'read', number[]> = { issue: [], read: [] };
  let vendorMs = 0;
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? '';
    if (route.startsWith('/v2/user/certificate/')) {
      const waited = request.vendorStopwatch?.vendorMs ?? 0;
      vendorMs += waited;
      samples.issue.push(reply.elapsedTime - waited);
    } else if (route === '/v2/user/assignments/:id') {
      samples.read.push(reply.elapsedTime);
    }
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  // Warm-up: connections, prepared statements, JIT.
  await run({ type: 'flows', baseUrl, secret, aesKey, users: 10, approvalDelayMs: APPROVAL_DELAY_MS });
  samples.issue.length = 0;

  const assignments = await Promise.all(
    Array.from({ length: USERS }, async (_, i) => {
      const userId = `bench-reader-${i}`;
      const assignment = await app.certificates.assignments.create({ userId, certificateVendor: 'VENDOR_B' });
      return { userId, id: assignment.id };
    }),
  );
  const baseline = await run({ type: 'reads', baseUrl, secret, assignments, readsPerUser: 3 });

  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  vendorMs = 0;
  const cpuBefore = process.cpuUsage();
  const flows = await run({ type: 'flows', baseUrl, secret, aesKey, users: USERS, approvalDelayMs: APPROVAL_DELAY_MS });
  const cpu = process.cpuUsage(cpuBefore);
  loop.disable();

  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const issue = summarize(samples.issue);
  const read = summarize(samples.read);
  return {
    flows,
    baseline,
    issue,
    read,
    loopMaxMs: loop.max / 1e6,
    loopP99Ms: loop.percentile(99) / 1e6,
    vendorMsPerCall: vendorMs / Math.max(1, samples.issue.length),
    // Every request this process served during the run (certificate calls and PDF downloads).
    cpuMsPerCall: (cpu.user + cpu.system) / 1000 / Math.max(1, samples.issue.length),
    calls: samples.issue.length,
    reads: samples.read.length,
  };
}

const loadBefore = os.loadavg()[0] ?? 0;
const rows: Array<Record<string, string | number>> = [];
const ratios: string[] = [];
let ok = true;
for (const engine of ['sqlite', 'postgres'] as EngineName[]) {
  let database: TestDatabase;
  try {
    database = await createTestDatabase(engine);
  } catch (error) {
    console.log(`(${engine} skipped: ${error instanceof Error ? error.message : String(error)})`);
    continue;
  }
  try {
    const r = await bench(database);
    rows.push({
      engine,
      scenario: `baseline: ${USERS} users read their assignment`,
      completed: `${r.baseline.completed}/${USERS}`,
      failures: r.baseline.failures.length,
      calls: r.reads,
      'ferry p50 ms': r.read.p50,
      'ferry p99 ms': r.read.p99,
      'vendor ms/call': '-',
      'cpu ms/call': '-',
      'loop max ms': '-',
    });
    rows.push({
      engine,
      scenario: `${USERS} users, complete two-step issuance`,
      completed: `${r.flows.completed}/${USERS}`,
      failures: r.flows.failures.length,
      calls: r.calls,
      'ferry p50 ms': r.issue.p50,
      'ferry p99 ms': r.issue.p99,
      'vendor ms/call': r.vendorMsPerCall,
      'cpu ms/call': r.cpuMsPerCall,
      'loop max ms': r.loopMaxMs,
    });
    ratios.push(
      `${engine}: issuance overhead p99 ${r.issue.p99.toFixed(2)} ms = ${(r.issue.p99 / r.read.p99).toFixed(2)}× the baseline read p99 ` +
        `(${r.read.p99.toFixed(2)} ms); event-loop delay p99 ${r.loopP99Ms.toFixed(2)} ms, max ${r.loopMaxMs.toFixed(2)} ms; ` +
        `${r.flows.pendingRetries} AUTH_PENDING retries; wall ${(r.flows.wallMs / 1000).toFixed(1)} s`,
    );
    if (r.flows.failures.length > 0) console.log(`${engine} failures:`, r.flows.failures.slice(0, 5));
    if (r.flows.completed !== USERS || r.flows.failures.length > 0 || r.issue.p99 > TARGET_P99_MS) ok = false;
  } finally {
    await database.drop();
  }
}
load.send({ type: 'stop' } satisfies LoadMessage);

console.log(
  `\nbench:certificates: ${USERS} concurrent users, approval after ${APPROVAL_DELAY_MS} ms (vendors in a separate process); ` +
    `machine load average ${loadBefore.toFixed(1)} → ${(os.loadavg()[0] ?? 0).toFixed(1)} on ${os.cpus().length} CPUs\n`,
);
printTable(rows);
console.log('');
for (const line of ratios) console.log(line);
console.log(
  `\nTarget: all ${USERS} complete with zero failures and Ferry's overhead p99 ≤ ${TARGET_P99_MS} ms: ${ok ? 'met' : 'NOT met'}`,
);
process.exitCode = ok ? 0 : 1;
