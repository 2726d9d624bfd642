import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import CachePolicy from 'http-cache-semantics';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines.js';
import {
  bspatch,
  bundleText,
  downloadLaunchAssetLikeExpo,
  patchRequestHeaders,
  rawGet,
  settledPatches,
} from '../support/patch-client.js';
import { type Exposition, sampleSum, scrape } from '../support/prometheus.js';
import { fileOf, hashOfBytes, publishRelease } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Bundle patches (issue 36) over real HTTP, on two instances of one database and one object store:
 * published through the first, made once by either, downloaded from the second as expo-updates 55+
 * does, and applied with Debian's bspatch, an implementation independent of the server's.
 */

const METRICS_TOKEN = 'metrics-token-for-bundle-patches';
const brotliSize = (bytes: Buffer) => zlib.brotliCompressSync(bytes).length;

describeEachEngine('bundle patches', (engine) => {
  const track = { channel: 'production', platform: 'ios', runtimeVersion: '36.0.0' } as const;
  const first = Buffer.from(bundleText(8_000));
  // A one-line change.
  const second = Buffer.from(first.toString().replace('function _', 'function changed_'));
  let dataDir: string;
  let publisher: TestServer;
  let other: TestServer;
  let releases: { first: string; second: string };
  let secondUrl: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-patches-'));
    const env = { DATA_DIR: dataDir, OBJECT_URL_SIGNING_SECRET: 'a'.repeat(64), METRICS_TOKEN };
    publisher = await startTestServer(engine, { env });
    other = await startTestServer(engine, { env, database: publisher.database });
    const launch = (bytes: Buffer) => fileOf(bytes, 'application/javascript', '.bundle');
    const a = await publishRelease(publisher, { ...track, launch: launch(first) });
    const b = await publishRelease(publisher, { ...track, launch: launch(second) });
    releases = { first: a.id, second: b.id };
    secondUrl = other.assetUrl(track, hashOfBytes(second));
  });
  afterAll(async () => {
    await other?.close();
    await publisher?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a device on the previous release gets a 226 patch from the other instance, which bspatch turns into the bundle', async () => {
    const [patch] = await settledPatches(publisher, track, releases.second);
    expect(patch).toMatchObject({ base: { kind: 'release', updateId: releases.first }, state: 'ready' });
    const download = await downloadLaunchAssetLikeExpo(
      secondUrl,
      { currentUpdateId: releases.first, requestedUpdateId: releases.second, runningBundle: first },
      hashOfBytes(second),
    );
    expect(download.kind).toBe('patch');
    const { answer } = download;
    expect(answer.status).toBe(226);
    expect(answer.headers.im).toBe('bsdiff');
    expect(answer.headers['expo-base-update-id']).toBe(releases.first);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.subarray(0, 8).toString('latin1')).toBe('BSDIFF40');
    expect(answer.body.length).toBe(patch!.bytes);
    expect(patch!.fullBytes).toBe(brotliSize(second));
    // A one-line change: far below a quarter of the compressed full bundle.
    expect(answer.body.length).toBeLessThan(brotliSize(second) / 4);
    // Made once, by one of the two instances.
    const made = [publisher, other].flatMap((server) =>
      server.logs
        .entries()
        .filter((entry) => entry.msg === 'bundle patch made' && entry.target === hashOfBytes(second)),
    );
    expect(made).toHaveLength(1);
  });

  it('every other request gets the full bundle exactly as before', async () => {
    await settledPatches(publisher, track, releases.second);
    const plain = await rawGet(secondUrl, { 'accept-encoding': 'br' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBe('br');
    const elsewhere = await publishRelease(publisher, {
      ...track,
      channel: 'development',
      launch: fileOf(first, 'application/javascript', '.bundle'),
    });
    const cases: Array<[string, Record<string, string>]> = [
      ['no A-IM (a client without patches)', { 'expo-current-update-id': releases.first }],
      ['A-IM without bsdiff', { 'a-im': 'vcdiff', 'expo-current-update-id': releases.first }],
      ['an unknown update id', patchRequestHeaders(randomUUID(), releases.second)],
      [
        'a malformed update id',
        { ...patchRequestHeaders(releases.first, releases.second), 'expo-current-update-id': 'abc' },
      ],
      ['the update it asks for (it runs it already)', patchRequestHeaders(releases.second, releases.second)],
      ['a base from another track', patchRequestHeaders(elsewhere.id, releases.second)],
    ];
    for (const [name, headers] of cases) {
      const answer = await rawGet(secondUrl, { ...headers, 'accept-encoding': 'br' });
      expect({ name, status: answer.status, im: answer.headers.im }).toEqual({ name, status: 200, im: undefined });
      expect(answer.body.equals(plain.body), name).toBe(true);
      expect(answer.headers['cache-control']).toBe(plain.headers['cache-control']);
    }
  });

  it('no shared cache keeps a patch, or hands a full answer to a device that could have had a patch from another base', async () => {
    await settledPatches(publisher, track, releases.second);
    const request = (headers: Record<string, string>) => ({ method: 'GET', url: new URL(secondUrl).pathname, headers });
    const patchHeaders = patchRequestHeaders(releases.first, releases.second);
    const patch = await rawGet(secondUrl, patchHeaders);
    expect(patch.status).toBe(226);
    expect(new CachePolicy(request(patchHeaders), patch, { shared: true }).storable()).toBe(false);
    expect(new CachePolicy(request(patchHeaders), patch, { shared: false }).storable()).toBe(false);

    // A full answer is cacheable, for the requests it fits.
    const plainHeaders = { 'accept-encoding': 'br' };
    const full = await rawGet(secondUrl, plainHeaders);
    const stored = new CachePolicy(request(plainHeaders), full, { shared: true });
    expect(stored.storable()).toBe(true);
    expect(stored.satisfiesWithoutRevalidation(request(plainHeaders))).toBe(true);
    expect(stored.satisfiesWithoutRevalidation(request({ ...plainHeaders, ...patchHeaders }))).toBe(false);
    // A full answer to a device whose base has no patch fits only devices on that base.
    const unknownBase = { ...plainHeaders, ...patchRequestHeaders(randomUUID(), releases.second) };
    const fullForUnknown = await rawGet(secondUrl, unknownBase);
    const storedForUnknown = new CachePolicy(request(unknownBase), fullForUnknown, { shared: true });
    expect(storedForUnknown.storable()).toBe(true);
    expect(storedForUnknown.satisfiesWithoutRevalidation(request({ ...plainHeaders, ...patchHeaders }))).toBe(false);
  });

  it('a registered embedded bundle gets a patch to the track’s release, and registering again changes nothing', async () => {
    const embedded = Buffer.from(first.toString().replace('return', 'return /* embedded */'));
    const updateId = randomUUID();
    const register = (bytes: Buffer, query: Record<string, string>) =>
      publisher.authed(`/api/updates/embedded?${new URLSearchParams(query)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: new Uint8Array(bytes),
      });
    const query = { platform: 'ios', runtimeVersion: track.runtimeVersion, updateId };
    const created = await register(embedded, query);
    expect(created.status).toBe(201);
    // One patch to the newest release of each channel on its runtime version (production, and the
    // development release an earlier test published).
    expect(await created.json()).toMatchObject({ updateId, hash: hashOfBytes(embedded), patchesQueued: 2 });
    const again = await register(embedded, query);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ patchesQueued: 0 });
    const conflicting = await register(second, query);
    expect(conflicting.status).toBe(409);
    expect(((await conflicting.json()) as { error: { code: string } }).error.code).toBe('EMBEDDED_BUNDLE_CONFLICT');
    expect((await register(embedded, { ...query, updateId: 'not-a-uuid' })).status).toBe(400);
    expect((await register(Buffer.alloc(0), { ...query, updateId: randomUUID() })).status).toBe(400);
    const stranger = await fetch(`${publisher.url}/api/updates/embedded?${new URLSearchParams(query)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(embedded),
    });
    expect(stranger.status).toBe(401);
    // The audit export is one JSON object per line.
    const audit = (await (await publisher.authed('/api/audit-events?type=embedded.registered')).text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { actor: string; details: Record<string, unknown> });
    expect(audit).toEqual([
      expect.objectContaining({
        actor: 'release-token',
        details: expect.objectContaining({ updateId, platform: 'ios', hash: hashOfBytes(embedded), patchesQueued: 2 }),
      }),
    ]);
    const listed = (await (await publisher.authed('/api/updates/embedded?platform=ios')).json()) as {
      embedded: Array<{ updateId: string }>;
    };
    expect(listed.embedded.map((bundle) => bundle.updateId)).toEqual([updateId]);

    const patches = await settledPatches(publisher, track, releases.second);
    expect(patches.find((patch) => patch.base.kind === 'embedded')).toMatchObject({
      base: { updateId },
      state: 'ready',
    });
    const download = await downloadLaunchAssetLikeExpo(
      secondUrl,
      { currentUpdateId: updateId, requestedUpdateId: releases.second, runningBundle: embedded },
      hashOfBytes(second),
    );
    expect(download.kind).toBe('patch');
    expect(bspatch(embedded, download.answer.body).equals(second)).toBe(true);
  });

  it('/metrics counts patch and full downloads, their bytes and the bytes saved', async () => {
    const before = await metricsOf(other);
    const patch = await rawGet(secondUrl, patchRequestHeaders(releases.first, releases.second));
    const full = await rawGet(secondUrl, {
      ...patchRequestHeaders(randomUUID(), releases.second),
      'accept-encoding': 'br',
    });
    const after = await metricsOf(other);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);
    expect(delta('ferry_bundle_downloads_total', { answer: 'patch' })).toBe(1);
    expect(delta('ferry_bundle_downloads_total', { answer: 'full' })).toBe(1);
    expect(delta('ferry_bundle_download_bytes_total', { answer: 'patch' })).toBe(patch.body.length);
    expect(delta('ferry_bundle_download_bytes_total', { answer: 'full' })).toBe(full.body.length);
    expect(delta('ferry_bundle_patch_bytes_saved_total')).toBe(brotliSize(second) - patch.body.length);
  });
});

const metricsOf = (server: TestServer): Promise<Exposition> => scrape(`${server.url}/metrics`, METRICS_TOKEN);
