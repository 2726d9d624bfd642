/**
 * bench:publish — the publisher against a real server (SQLite, local object store) with 500 assets
 * of 50 KB each (one platform: a 50 KB bundle and 499 assets). It compares a first publish with a
 * re-publish of the same export (bytes sent, seconds), and upload concurrency 1 with 8. The first
 * publish at concurrency 1 is the baseline of the ratios. Config and fingerprint are fakes: this
 * measures hashing, the asset check, the uploads and the release, not Metro or @expo/fingerprint.
 */
import { randomBytes } from 'node:crypto';
import { startTestServer } from '../../server/test/support/test-server.js';
import { type PublishDependencies, publishUpdate } from '../src/publish/publisher.js';
import { asset, bundle, writeSyntheticExport } from '../test/support/synthetic-export.js';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 500);
const ASSET_BYTES = 50 * 1024;

/** fetch that counts what the publisher sends: PUT bodies (asset bytes) and every request body. */
function countingFetch() {
  const sent = { assetBytes: 0, requestBytes: 0, puts: 0, requests: 0 };
  const fetchImpl: typeof fetch = async (input, init) => {
    const body = init?.body;
    const size = typeof body === 'string' ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.byteLength : 0;
    sent.requests++;
    sent.requestBytes += size;
    if ((init?.method ?? 'GET').toUpperCase() === 'PUT') {
      sent.puts++;
      sent.assetBytes += size;
    }
    return fetch(input, init);
  };
  return { sent, fetchImpl };
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);

async function main(): Promise<void> {
  const server = await startTestServer('sqlite', { logLevel: 'warn' });
  const exported = writeSyntheticExport({
    ios: {
      bundle: bundle('ios', randomBytes(ASSET_BYTES)),
      assets: Array.from({ length: ASSETS - 1 }, () => asset('png', randomBytes(ASSET_BYTES))),
    },
  });
  let track = 0;
  const publishOnce = async (runtimeVersion: string, concurrency: number) => {
    const { sent, fetchImpl } = countingFetch();
    const deps: PublishDependencies = {
      env: { CI: 'true', OTA_SERVER_URL: server.url, OTA_RELEASE_TOKEN: server.token },
      out: { isTTY: false, write: () => true },
      exporter: async () => exported.dir,
      codeSigning: async () => undefined,
      evaluateAppConfig: async () => ({ name: 'bench', slug: 'bench', ios: { runtimeVersion } }),
      fingerprint: async () => ({ hash: 'bench-fingerprint' }),
      git: { commit: async () => undefined, branch: async () => undefined },
      fetch: fetchImpl,
    };
    const started = performance.now();
    const [result] = await publishUpdate(
      { channel: 'production', platforms: ['ios'], projectRoot: exported.dir, distDir: exported.dir, concurrency },
      deps,
    );
    const seconds = (performance.now() - started) / 1000;
    return { seconds, sent, uploaded: result!.uploaded.count, skipped: result!.skipped.count };
  };

  try {
    // Warm-up on a track of its own: JIT, connection pool, object-store directories.
    await publishOnce(`warmup-${++track}`, 8);

    const sequentialTrack = `bench-${++track}`;
    const sequential = await publishOnce(sequentialTrack, 1);
    const parallelTrack = `bench-${++track}`;
    const parallel = await publishOnce(parallelTrack, 8);
    const republish = await publishOnce(parallelTrack, 8);

    const rows = [
      { run: 'first publish', concurrency: 1, ...sequential },
      { run: 'first publish', concurrency: 8, ...parallel },
      { run: 're-publish (same export)', concurrency: 8, ...republish },
    ].map((r) => ({
      run: r.run,
      concurrency: r.concurrency,
      'assets uploaded': r.uploaded,
      'assets skipped': r.skipped,
      'asset MiB sent': mib(r.sent.assetBytes),
      'request MiB sent': mib(r.sent.requestBytes),
      requests: r.sent.requests,
      seconds: r.seconds.toFixed(2),
      'vs baseline': `${(sequential.seconds / r.seconds).toFixed(2)}× faster`,
    }));
    process.stdout.write(
      `\nbench:publish — ${ASSETS} assets × ${ASSET_BYTES / 1024} KiB (${mib(ASSETS * ASSET_BYTES)} MiB), one platform, ` +
        'server on 127.0.0.1 (SQLite, local object store)\nbaseline: first publish at concurrency 1\n\n',
    );
    console.table(rows);
    process.stdout.write(
      `\nconcurrency 8 vs 1 (first publish): ${(sequential.seconds / parallel.seconds).toFixed(2)}× faster\n` +
        `re-publish vs first publish (concurrency 8): ${republish.sent.assetBytes} asset bytes sent instead of ` +
        `${parallel.sent.assetBytes}; ${(parallel.seconds / republish.seconds).toFixed(1)}× faster\n`,
    );
  } finally {
    exported.remove();
    await server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
