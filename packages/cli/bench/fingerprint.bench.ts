/**
 * bench:fingerprint — where a publish of the example app spends its time, and what reusing the
 * fingerprint saves (issue 35, item 7). It needs the example app installed outside the checkout,
 * with its export: `E2E_KEEP=1 npm run e2e:expo` keeps one (it prints `kept <dir>`); then
 * `FERRY_BENCH_APP=<dir>/expo-app npm run bench:fingerprint`.
 *
 * 1. The app's own `expo-updates fingerprint:generate` for one platform, both one after the other,
 *    both at once, and the key check of a reuse (fingerprint-reuse.ts), all with APP_ENV=production.
 * 2. One CI job as a team runs it, `ferry gate` (both platforms), then `ferry publish` of the app's
 *    export, then a re-publish of it (0 bytes uploaded), against a local test server (SQLite, local
 *    object store), each time with a fresh server and tracks of its own:
 *    - before: no FERRY_FINGERPRINT_CACHE, every command computes both fingerprints (the baseline);
 *    - after: FERRY_FINGERPRINT_CACHE set, the gate computes them and the publishes reuse them;
 *    - after, no gate in the job (the Publish template): the publish computes, the re-publish reuses.
 * The commands run in this process with the real app config, fingerprint and uploads; code signing is
 * left out (the app embeds the e2e server's certificate, not this server's).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PLATFORMS, type Platform } from '@ferry/contracts';
import { startTestServer } from '../../server/test/support/test-server.js';
import { computeFingerprint, FINGERPRINT_CACHE_VARIABLE } from '../src/fingerprint/app-fingerprint.js';
import { checkoutInputsKey, fingerprintsOnce } from '../src/fingerprint/fingerprint-reuse.js';
import { createExpoProjectInspector } from '../src/gate/expo-project-inspector.js';
import { evaluateAppConfig } from '../src/publish/app-config.js';
import { publishUpdate } from '../src/publish/publisher.js';

const app = process.env.FERRY_BENCH_APP;
if (!app || !fs.existsSync(path.join(app, 'dist', 'metadata.json'))) {
  process.stderr.write(
    'bench:fingerprint needs the installed example app and its export: run `E2E_KEEP=1 npm run e2e:expo`, then\n' +
      '  FERRY_BENCH_APP=<the kept folder>/expo-app npm run bench:fingerprint\n',
  );
  process.exit(1);
}
const projectRoot = path.resolve(app);
const distDir = path.join(projectRoot, 'dist');
process.env.APP_ENV = 'production';
process.env.CI = 'true';
const quiet = () => {};

/** The app's fingerprint command, counted, and timed by wall clock (two at once count once). */
const counter = { computations: 0, seconds: 0 };
let running = 0;
let busySince = 0;
const counted = async (root: string, platform: Platform) => {
  if (running++ === 0) busySince = performance.now();
  try {
    return await computeFingerprint(root, platform, { log: quiet });
  } finally {
    counter.computations++;
    if (--running === 0) counter.seconds += (performance.now() - busySince) / 1000;
  }
};

const seconds = async <T>(work: () => Promise<T>): Promise<[number, T]> => {
  const started = performance.now();
  const result = await work();
  return [(performance.now() - started) / 1000, result];
};

let track = 0;
interface Row {
  scenario: string;
  command: string;
  seconds: number;
  computations: number;
  fingerprintSeconds: number;
  uploadedBytes: number;
}

/** gate, publish, re-publish in one "job": with or without the job's fingerprint file. */
async function job(scenario: string, reuse: boolean, gate = true): Promise<Row[]> {
  const server = await startTestServer('sqlite', { logLevel: 'warn' });
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-fp-'));
  const env = {
    ...process.env,
    OTA_SERVER_URL: server.url,
    OTA_RELEASE_TOKEN: server.token,
    [FINGERPRINT_CACHE_VARIABLE]: reuse ? path.join(storeDir, 'fingerprints.json') : '',
  };
  const runtimeVersion = `${++track}.0.0(1)`;
  const rows: Row[] = [];
  const measure = async (command: string, work: () => Promise<number>) => {
    const before = { ...counter };
    const [took, uploadedBytes] = await seconds(work);
    rows.push({
      scenario,
      command,
      seconds: took,
      computations: counter.computations - before.computations,
      fingerprintSeconds: counter.seconds - before.seconds,
      uploadedBytes,
    });
  };
  try {
    if (gate)
      await measure('ferry gate (both platforms)', async () => {
        const inspector = createExpoProjectInspector(projectRoot, {
          fingerprint: fingerprintsOnce({ env, compute: counted, command: 'ferry gate', log: quiet }),
        });
        for (const platform of PLATFORMS) await inspector.fingerprint(platform);
        return 0;
      });
    const publish = async () => {
      const results = await publishUpdate(
        { channel: 'production', platforms: [...PLATFORMS], projectRoot, distDir, concurrency: 8, message: '' },
        {
          env,
          out: { isTTY: false, write: () => true },
          exporter: async () => distDir,
          codeSigning: async () => undefined,
          // A track of this job's own, so that each job's first publish uploads everything.
          evaluateAppConfig: async (root) => {
            const config = await evaluateAppConfig(root);
            return {
              ...config,
              ios: { ...(config.ios as object), runtimeVersion },
              android: { ...(config.android as object), runtimeVersion },
            };
          },
          fingerprint: fingerprintsOnce({ env, compute: counted, command: 'ferry publish', log: quiet }),
          git: { commit: async () => undefined, branch: async () => undefined },
        },
      );
      return results.reduce((total, result) => total + result.uploaded.bytes, 0);
    };
    await measure('ferry publish', publish);
    await measure('ferry publish again (0 bytes)', publish);
  } finally {
    fs.rmSync(storeDir, { recursive: true, force: true });
    await server.close();
  }
  return rows;
}

async function main(): Promise<void> {
  const originalStderr = process.stderr.write.bind(process.stderr);
  // The publisher's code-signing warning, once per publish: not what this measures.
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
    String(chunk).startsWith('warning: the app config names no updates.codeSigningCertificate')
      ? true
      : originalStderr(chunk, ...rest)) as typeof process.stderr.write;

  // Warm-up: the file system cache, and the modules the app config loads in this process.
  await counted(projectRoot, 'ios');
  await evaluateAppConfig(projectRoot);

  const [one] = await seconds(() => counted(projectRoot, 'ios'));
  const [sequential] = await seconds(async () => {
    for (const platform of PLATFORMS) await counted(projectRoot, platform);
  });
  const [concurrent] = await seconds(() => Promise.all(PLATFORMS.map((platform) => counted(projectRoot, platform))));
  const [keyCheck] = await seconds(() => checkoutInputsKey(projectRoot, process.env));

  process.stdout.write(
    `\nbench:fingerprint — ${projectRoot} (${os.cpus().length} cores, load ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')})\n\n`,
  );
  console.table([
    { measure: 'fingerprint, one platform (ios)', seconds: one.toFixed(2) },
    { measure: 'fingerprint, both platforms one after the other', seconds: sequential.toFixed(2) },
    {
      measure: 'fingerprint, both platforms at once',
      seconds: concurrent.toFixed(2),
      'vs one after the other': `${(sequential / concurrent).toFixed(2)}×`,
    },
    { measure: 'key check of a reuse (git, stat of ignored files and node_modules)', seconds: keyCheck.toFixed(2) },
  ]);

  const before = await job('before (no reuse)', false);
  const after = await job(`after (${FINGERPRINT_CACHE_VARIABLE})`, true);
  const alone = await job('after, no gate in the job', true, false);
  const rows = [...before, ...after, ...alone].map((row) => {
    const baseline = before.find((b) => b.command === row.command)!;
    return {
      scenario: row.scenario,
      command: row.command,
      'fingerprints computed': row.computations,
      'fingerprint s': row.fingerprintSeconds.toFixed(2),
      seconds: row.seconds.toFixed(2),
      'fingerprint share': `${Math.round((100 * row.fingerprintSeconds) / row.seconds)}%`,
      'bytes uploaded': row.uploadedBytes,
      'vs baseline': `${(baseline.seconds / row.seconds).toFixed(2)}× faster`,
    };
  });
  process.stdout.write('\none job: gate, publish, re-publish of the example app (baseline: before, same command)\n\n');
  console.table(rows);
  const total = (job: Row[]) => job.reduce((sum, row) => sum + row.seconds, 0);
  process.stdout.write(
    `\nthe whole job: ${total(before).toFixed(2)} s before, ${total(after).toFixed(2)} s after ` +
      `(${(total(before) / total(after)).toFixed(2)}× faster); fingerprints computed: ` +
      `${before.reduce((n, row) => n + row.computations, 0)} before, ${after.reduce((n, row) => n + row.computations, 0)} after\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
