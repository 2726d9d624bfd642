import { createPrivateKey, randomUUID } from 'node:crypto';
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Release } from '@ferry/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetUrls } from '../../src/ota/assets/asset-urls.js';
import { manifestAnswer } from '../../src/ota/manifest/manifest-decision.js';
import { pickHeaders } from '../../src/ota/manifest/manifest-headers.js';
import { negotiateManifestFormat, parseManifestRequest } from '../../src/ota/manifest/manifest-request.js';
import { defaultAppSigner, ManifestService } from '../../src/ota/manifest/manifest-service.js';
import { NodeManifestSigner } from '../../src/signing/manifest-signer.js';
import { watchLoopBlocking } from '../support/loop-blocking.js';
import { releasePayload, storeAssets } from '../support/releases.js';
import { startTestServer, TEST_SIGNING, type TestServer } from '../support/test-server.js';

/**
 * Devices that send ever-new `expo-current-update-id` values (issue 34, item 2) must not grow what
 * the server retains: nothing of a request outlives its answer.
 */

/** What a million distinct requests may leave retained on the heap after a full collection. */
const MAX_RETAINED_BYTES = 2 * 1024 * 1024;
/** New devices over HTTP after a first batch: each could retain a few hundred bytes if anything kept them. */
const NEW_DEVICES = 20_000;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Heap in use after full collections (several: weak references and finalizers take more than one). */
async function heapAfterGc(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return v8.getHeapStatistics().used_heap_size;
}

const track = { app: 'default', channel: 'production', platform: 'ios', runtimeVersion: '34.2.0' } as const;
const headersOf = (currentUpdateId: string) => ({
  'expo-protocol-version': '1',
  'expo-platform': track.platform,
  'expo-runtime-version': track.runtimeVersion,
  'expo-channel-name': track.channel,
  'expo-current-update-id': currentUpdateId,
  accept: 'multipart/mixed',
});
const turn = () => new Promise((resolve) => setImmediate(resolve));
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

describe("a million devices with distinct current update ids (in process, the fast path's own code)", () => {
  const release = {
    id: '34343434-3434-4343-8343-343434343434',
    ...track,
    launchAsset: { url: 'https://cdn.test/bundle', hash: 'a'.repeat(43) },
    assets: [],
    otaConfig: null,
    updatePolicy: null,
    metadata: {},
    createdAt: '2026-11-24T00:00:00.000Z',
  } as unknown as Release;
  const signer = new NodeManifestSigner(
    createPrivateKey(TEST_SIGNING.privateKeyPem),
    TEST_SIGNING.certificatePem,
    'main',
  );
  const service = new ManifestService({
    store: {
      timeline: async () => ({
        head: { kind: 'release', release, signatures: [] },
        rollout: undefined,
        fallback: undefined,
      }),
      saveSignatures: async () => {},
      saveDirectiveSignatures: async () => {},
      timelinesOfRecentTracks: async () => [],
    },
    signers: defaultAppSigner(signer),
    urls: new AssetUrls(() => 'https://cdn.test/ota'),
    log: pino({ level: 'silent' }),
    ttlMs: 3_600_000,
  });

  /** What the fast path runs for one request, up to the answer it would write. */
  function answer(currentUpdateId: string) {
    const picked = pickHeaders(Object.entries(headersOf(currentUpdateId)).flat());
    const parsed = parseManifestRequest(picked, 'default', service.cachedTrack);
    if (!parsed.ok) throw new Error(parsed.message);
    if (!parsed.found) throw new Error('the track is not cached');
    const format = negotiateManifestFormat(picked.get('accept'))!;
    const answered = manifestAnswer(parsed.found, parsed, format, service.upToDateOf('default')!);
    if (answered?.status !== 200) throw new Error('no answer');
  }

  it('retains a bounded heap', async () => {
    await service.track(track);
    // A first pass, so the baseline holds what a steady state holds (code, the accept memo).
    for (let i = 0; i < 25_000; i++) answer(randomUUID());
    const before = await heapAfterGc();

    // In slices, one per turn, as requests arrive: the watch measures each turn's own work.
    const requests = watchLoopBlocking();
    for (let sent = 0; sent < 1_000_000; ) {
      for (const end = sent + 500; sent < end; sent++) answer(randomUUID());
      await turn();
    }
    const sending = requests.stop();
    const after = await heapAfterGc();
    process.stderr.write(
      `distinct ids (in process): retained ${mib(after - before)} after 1,000,000 requests; longest block ${sending.longestBlockMs.toFixed(1)} ms\n`,
    );
    expect(after - before).toBeLessThanOrEqual(MAX_RETAINED_BYTES);
  });
});

describe('devices with distinct current update ids over HTTP (the real server)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { MANIFEST_WARM_UP_REQUESTS: '0' } });
    const { app: _app, ...asSent } = track;
    const payload = releasePayload({ ...asSent, runtimeVersion: '34.2.1' });
    await storeAssets(server, payload);
    const published = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
    expect(published.status).toBe(201);
  });
  afterAll(async () => server?.close());

  /** `count` manifest requests with new ids, 16 at a time over keep-alive connections. */
  async function send(count: number): Promise<void> {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const { hostname, port } = new URL(server.url);
    let next = 0;
    const one = () =>
      new Promise<void>((resolve, reject) => {
        http
          .get(
            {
              agent,
              hostname,
              port,
              path: '/api/updates/manifest',
              headers: { ...headersOf(randomUUID()), 'expo-runtime-version': '34.2.1' },
            },
            (response) => {
              if (response.statusCode !== 200) reject(new Error(`status ${response.statusCode}`));
              response.resume();
              response.on('end', resolve);
            },
          )
          .on('error', reject);
      });
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next++ < count) await one();
      }),
    );
    agent.destroy();
  }

  it('retains nothing per new device', async () => {
    await send(25_000);
    const before = await heapAfterGc();
    await send(NEW_DEVICES);
    const after = await heapAfterGc();
    process.stderr.write(`distinct ids (HTTP): retained ${mib(after - before)} after ${NEW_DEVICES} more requests\n`);
    // Each kept, the 20,000 would be about 8 MiB more.
    expect(after - before).toBeLessThanOrEqual(MAX_RETAINED_BYTES);
  });
});
