import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { KyselyReleaseStore } from '../../src/ota/kysely-release-store.js';
import { NodeManifestSigner } from '../../src/signing/manifest-signer.js';
import type { ObjectStore } from '../../src/storage/objects/object-store.js';
import { describeEachEngine } from '../support/engines.js';
import { checkManifestLikeExpo, clientHeaders, fetchManifestLikeExpo } from '../support/expo-client.js';
import { watchLoopBlocking } from '../support/loop-blocking.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { manifestSignings } from '../support/signing-spy.js';
import { startTestServer, TEST_SIGNING, type TestServer } from '../support/test-server.js';

/**
 * Release day (issue 17): a crowd of devices checks for and downloads a release the moment it is
 * published. Compression happens when the bundle is uploaded and signing when the release is
 * published, once each; the crowd then only reads, and the event loop never stalls.
 */
const CROWD = 500;
const MAX_BLOCK_MS = 50;
/** What the crowd may add to this process's memory (server and its 500 clients together). */
const MAX_RSS_GROWTH_BYTES = 256 * 1024 * 1024;
const BUNDLE_BYTES = 5 * 1024 * 1024;

/** JavaScript-like text that compresses as a real bundle does, different on every call. */
function bundleText(bytes: number): Buffer {
  const words = ['function', 'return', 'const', 'props', 'useState', 'render', 'children', 'value', 'React'];
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `${words[i % words.length]} _${randomBytes(3).toString('hex')}(a${i % 97}){return ${words[(i * 7) % words.length]}.x${i % 13}+${i};}\n`;
    parts.push(line);
    size += line.length;
  }
  return Buffer.from(parts.join('')).subarray(0, bytes);
}

/** The keys of compressed forms the store was asked to write since the spy was made. */
function watchEncodedWrites(store: ObjectStore) {
  const put = vi.spyOn(store, 'put');
  return () => put.mock.calls.map(([key]) => key).filter((key) => key.startsWith('encoded/'));
}

const crowdScript = fileURLToPath(new URL('../support/crowd.mjs', import.meta.url));

interface CrowdAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  sha: string;
  bytes: number;
}

interface Crowd {
  /** Resolves once its connections are open. */
  ready: Promise<void>;
  /** Makes every device send its request at once; resolves with what they got. */
  go(): Promise<{ answers: CrowdAnswer[]; bodies: Record<string, string> }>;
}

/**
 * `count` devices in another process (support/crowd.mjs), each with a keep-alive connection to
 * the server already open, as behind a load balancer; `go` has them all GET `url` at once.
 */
function crowd(url: string, count: number, headers: Record<string, string>): Crowd {
  const warmUrl = `${new URL(url).origin}/healthz`;
  const child = spawn(process.execPath, [crowdScript, JSON.stringify({ url, count, headers, warmUrl })]);
  // The output is kept as chunks and joined once: testing a growing string on every chunk flattens
  // it each time, and for the crowd's result (over a megabyte) that would hold this process's event
  // loop, the one the test watches.
  const chunks: Buffer[] = [];
  let err = '';
  let onReady: () => void = () => undefined;
  let isReady = false;
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    if (!isReady && Buffer.concat(chunks).toString().startsWith('ready\n')) {
      isReady = true;
      onReady();
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    ready: Promise.race([
      ready,
      closed.then((code) => {
        throw new Error(`the crowd ended before it was ready (${code}): ${err}`);
      }),
    ]),
    go: async () => {
      child.stdin.end('go\n');
      const code = await closed;
      if (code !== 0) throw new Error(`the crowd failed (${code}): ${err}`);
      return JSON.parse(Buffer.concat(chunks).toString().slice('ready\n'.length)) as {
        answers: CrowdAnswer[];
        bodies: Record<string, string>;
      };
    },
  };
}

describeEachEngine('release day', (engine) => {
  let publisher: TestServer;
  afterEach(() => vi.restoreAllMocks());
  beforeAll(async () => {
    publisher = await startTestServer(engine);
  });
  afterAll(async () => {
    await publisher?.close();
  });

  it(`${CROWD} devices download a just-published 5 MiB bundle at once: all get the stored brotli form, none waits for compression`, async () => {
    const encodedWrites = watchEncodedWrites(publisher.app.objectStore);
    const bundle = bundleText(BUNDLE_BYTES);
    const { urls } = await publishRelease(publisher, {
      channel: 'production',
      platform: 'android',
      runtimeVersion: 'herd-1',
      launch: fileOf(bundle, 'application/javascript', '.bundle'),
    });
    // The upload made the brotli and gzip forms; the publish found them there.
    expect(
      encodedWrites()
        .map((key) => key.split('/')[1])
        .sort(),
    ).toEqual(['br', 'gzip']);
    const url = [...urls.values()][0]!;

    // The publish also read the forms into memory: the crowd costs the store no read at all.
    const opens = vi.spyOn(publisher.app.objectStore, 'get');
    const reads = vi.spyOn(publisher.app.objectStore, 'read');
    const before = process.memoryUsage.rss();
    const herd = crowd(url, CROWD, { 'accept-encoding': 'br, gzip' });
    await herd.ready;
    const watch = watchLoopBlocking();
    const { answers } = await herd.go();
    const { longestBlockMs, longestWallGapMs, peakRssBytes } = watch.stop();
    console.log(
      `release day [${engine}]: longest block ${longestBlockMs.toFixed(1)} ms (wall gap ${longestWallGapMs.toFixed(1)} ms), RSS +${((peakRssBytes - before) / 2 ** 20).toFixed(0)} MiB`,
    );

    expect(answers.every((answer) => answer.status === 200 && answer.headers['content-encoding'] === 'br')).toBe(true);
    expect(answers.every((answer) => answer.headers.vary === 'accept-encoding, a-im, expo-current-update-id')).toBe(
      true,
    );
    // Every device got the same bytes, and they are the bundle.
    expect(new Set(answers.map((answer) => answer.sha)).size).toBe(1);
    // node:http, not fetch: fetch would decompress the body on the way.
    const compressed = await new Promise<Buffer>((resolve, reject) =>
      http
        .get(url, { headers: { 'accept-encoding': 'br' } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve(Buffer.concat(chunks)));
        })
        .on('error', reject),
    );
    expect(createHash('sha256').update(compressed).digest('base64url')).toBe(answers[0]!.sha);
    expect(zlib.brotliDecompressSync(compressed).equals(bundle)).toBe(true);
    expect(compressed.length).toBeLessThan(BUNDLE_BYTES / 3);
    // Nothing was compressed, or read from the store, while the crowd downloaded.
    expect(encodedWrites()).toHaveLength(2);
    expect(opens).not.toHaveBeenCalled();
    expect(reads).not.toHaveBeenCalled();
    expect(longestBlockMs).toBeLessThanOrEqual(MAX_BLOCK_MS);
    expect(peakRssBytes - before).toBeLessThan(MAX_RSS_GROWTH_BYTES);
  });

  it(`${CROWD} devices ask another instance for a track just published through the first: signed once, at publish`, async () => {
    // A second instance on the same database, running before the publish: the track is new to it,
    // so its cache has nothing for it (on PostgreSQL the publish's notification also drops it).
    // Both answer at one public URL, as instances behind one load balancer do: manifests name
    // assets by the configured base, so they were signed once for it, at publish.
    const fresh = await startTestServer(engine, { database: publisher.database, env: { PUBLIC_URL: publisher.url } });
    const signatures = vi.spyOn(NodeManifestSigner.prototype, 'signatureHeader');
    const { id } = await publishRelease(publisher, {
      channel: 'production',
      platform: 'ios',
      runtimeVersion: 'herd-2',
      launch: fileOf(bundleText(4096), 'application/javascript', '.bundle'),
    });
    // Once per header namespace, inside the publish.
    expect(manifestSignings(signatures)).toBe(2);
    try {
      const loads = vi.spyOn(KyselyReleaseStore.prototype, 'timeline');
      const track = { platform: 'ios', runtimeVersion: 'herd-2', channel: 'production' };
      const trust = { certificatePem: TEST_SIGNING.certificatePem, keyId: 'main' };
      const before = process.memoryUsage.rss();
      const manifestUrl = `${fresh.url}/api/updates/manifest`;
      const expoHerd = crowd(manifestUrl, CROWD / 2, clientHeaders('expo', track));
      const otaHerd = crowd(manifestUrl, CROWD / 2, clientHeaders('ota', track));
      await Promise.all([expoHerd.ready, otaHerd.ready]);
      const watch = watchLoopBlocking();
      const [expo, ota] = await Promise.all([expoHerd.go(), otaHerd.go()]);
      const { longestBlockMs, longestWallGapMs, peakRssBytes } = watch.stop();
      console.log(
        `release day [${engine}]: longest block ${longestBlockMs.toFixed(1)} ms (wall gap ${longestWallGapMs.toFixed(1)} ms), RSS +${((peakRssBytes - before) / 2 ** 20).toFixed(0)} MiB`,
      );

      // Every answer is the release, signed, and passes what expo-updates checks.
      for (const [ns, { answers, bodies }] of [
        ['expo', expo],
        ['ota', ota],
      ] as const) {
        expect(answers).toHaveLength(CROWD / 2);
        for (const answer of answers) {
          const headers = new Headers(
            Object.entries(answer.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
          );
          const body = Buffer.from(bodies[answer.sha]!, 'base64');
          const result = await checkManifestLikeExpo(ns, { status: answer.status, headers, body }, trust);
          expect(result.kind === 'update' && result.manifest.id).toBe(id);
        }
      }
      // The new instance read the track once and signed nothing.
      expect(loads).toHaveBeenCalledTimes(1);
      expect(manifestSignings(signatures)).toBe(2);
      expect(longestBlockMs).toBeLessThanOrEqual(MAX_BLOCK_MS);
      expect(peakRssBytes - before).toBeLessThan(MAX_RSS_GROWTH_BYTES);

      // The publishing instance answers from what it stored at publish: no read, no signing.
      const onPublisher = await Promise.all(
        Array.from({ length: 50 }, () => fetchManifestLikeExpo(publisher.url, 'expo', track, trust)),
      );
      expect(onPublisher.every((result) => result.kind === 'update' && result.manifest.id === id)).toBe(true);
      expect(loads).toHaveBeenCalledTimes(1);
      expect(manifestSignings(signatures)).toBe(2);
    } finally {
      await fresh.close();
    }
  });
});
