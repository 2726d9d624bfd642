import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  type ConsoleEvent,
  ConsoleHistoryResponse,
  ConsoleReleaseDetail,
  ConsoleTracksResponse,
} from '@ferry/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OperatorTokenStore } from '../../../src/auth/operator-token-store.js';
import { createTestDatabase, describeEachEngine, type TestDatabase } from '../../support/engines.js';
import { openEventStream } from '../../support/event-stream-reader.js';
import { clientHeaders } from '../../support/expo-client.js';
import { bundleText } from '../../support/patch-client.js';
import { fileOf, publishRelease } from '../../support/publisher.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/**
 * The console's read API and live events over HTTP (issue 19): what the pages under /console show,
 * read from the same tables as the release-control API, and the stream that tells them a track
 * changed on this instance or (PostgreSQL) on another one.
 */
const launch = () => fileOf(`console.log("${randomBytes(8).toString('hex')}")`, 'application/javascript', '.bundle');
const track = (runtimeVersion: string) => ({ channel: 'production', platform: 'android', runtimeVersion }) as const;
const query = (t: { channel: string; platform: string; runtimeVersion: string }) => new URLSearchParams(t).toString();

describeEachEngine('console read API', (engine) => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer | undefined;
  let viewer: Record<string, string>;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    // One object store for both instances, as a deployment has: either may make a bundle patch.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-console-reads-'));
    const env = { DATA_DIR: dataDir, OBJECT_URL_SIGNING_SECRET: 'c'.repeat(64) };
    a = await startTestServer(engine, { database, env });
    // Two instances on one database only make sense with PostgreSQL (NOTIFY between them).
    if (engine === 'postgres') b = await startTestServer(engine, { database, env });
    // The console's reads need the viewer role: an operator token with it (the session cookie is
    // exercised by the browser tests, apps/console/e2e).
    const { token } = await new OperatorTokenStore(a.app.database.db).create(
      { name: 'vera', role: 'viewer' },
      { actor: 'test' },
    );
    viewer = { authorization: `Bearer ${token}` };
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (path: string, headers = viewer) => fetch(a.url + path, { headers });

  it('turns away requests without credentials (401, common error body)', async () => {
    for (const path of [
      '/api/console/tracks',
      `/api/console/history?${query(track('x'))}`,
      `/api/console/releases/${randomUUID()}`,
      '/api/console/events',
    ]) {
      const response = await get(path, {});
      expect(response.status, path).toBe(401);
      expect((await response.json()).error.code).toBe('UNAUTHORIZED');
    }
  });

  it('admits a viewer token until it is revoked (then 401), and the release token', async () => {
    const store = new OperatorTokenStore(a.app.database.db);
    const created = await store.create({ name: 'victor', role: 'viewer' }, { actor: 'test' });
    const headers = { authorization: `Bearer ${created.token}` };
    expect((await get('/api/console/tracks', headers)).status).toBe(200);
    await store.revoke(created.id, { actor: 'test' });
    const refused = await get('/api/console/tracks', headers);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe('UNAUTHORIZED');
    expect((await get('/api/console/tracks', { authorization: `Bearer ${a.token}` })).status).toBe(200);
  });

  it('answers bad input with 400 and an unknown release with 404, in the common error body', async () => {
    const missing = await get('/api/console/history?channel=production');
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.code).toBe('VALIDATION_FAILED');
    const badPlatform = await get(`/api/console/history?${query({ ...track('1'), platform: 'windows' })}`);
    expect(badPlatform.status).toBe(400);
    const notUuid = await get('/api/console/releases/not-a-uuid');
    expect(notUuid.status).toBe(400);
    expect((await notUuid.json()).error.code).toBe('VALIDATION_FAILED');
    const unknown = await get(`/api/console/releases/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe('NOT_FOUND');
  });

  it('shows every track with its state, share, guard counts and last publish', async () => {
    const complete = track('tracks-complete');
    const running = track('tracks-running');
    const embedded = track('tracks-embedded');
    const first = await publishRelease(a, { ...complete, launch: launch(), payload: { fingerprint: 'fp-1' } });
    // A changed fingerprint on a production track: the guard refuses it, and the console counts it.
    await expect(
      publishRelease(a, { ...complete, launch: launch(), payload: { fingerprint: 'fp-2' } }),
    ).rejects.toThrow(/answered 409/);
    const staged = await publishRelease(a, { ...running, launch: launch(), payload: { rollout: { percent: 25 } } });
    await publishRelease(a, { ...embedded, launch: launch() });
    const directive = await a.authed('/api/updates/directives', {
      method: 'POST',
      body: JSON.stringify({ ...embedded, type: 'rollBackToEmbedded' }),
    });
    expect(directive.status).toBe(201);

    const response = await get('/api/console/tracks');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { tracks } = ConsoleTracksResponse.parse(await response.json());
    const find = (runtimeVersion: string) => tracks.find((t) => t.runtimeVersion === runtimeVersion);
    expect(find(complete.runtimeVersion)).toMatchObject({
      activeReleaseId: first.id,
      state: 'complete',
      rolloutPercent: 100,
      guardBlocks: 1,
      guardBypasses: 0,
      adoption24h: 0,
      failureRate: null,
    });
    expect(find(running.runtimeVersion)).toMatchObject({
      activeReleaseId: staged.id,
      state: 'running',
      rolloutPercent: 25,
    });
    expect(find(embedded.runtimeVersion)).toMatchObject({ state: 'embedded' });
    // The directive is the embedded track's newest entry: its time is the last publish.
    const embeddedTrack = find(embedded.runtimeVersion);
    const { directive: created } = (await directive.json()) as { directive: { createdAt: string } };
    expect(embeddedTrack?.lastPublishAt).toBe(created.createdAt);
  });

  it('lists a track’s history newest first, with rollbacks and directives as such', async () => {
    const t = track('history-1');
    const one = await publishRelease(a, {
      ...t,
      launch: launch(),
      payload: { metadata: { message: 'first', commit: 'aaa', branch: 'main', actor: 'ci' } },
    });
    const two = await publishRelease(a, { ...t, launch: launch(), payload: { metadata: { message: 'second' } } });
    const rollback = await a.authed('/api/updates/rollback', { method: 'POST', body: JSON.stringify({ ...t }) });
    expect(rollback.status).toBe(201);
    const directive = await a.authed('/api/updates/directives', {
      method: 'POST',
      body: JSON.stringify({ ...t, type: 'rollBackToEmbedded', actor: 'alice' }),
    });
    expect(directive.status).toBe(201);

    const response = await get(`/api/console/history?${query(t)}`);
    expect(response.status).toBe(200);
    const { entries } = ConsoleHistoryResponse.parse(await response.json());
    expect(entries.map((e) => e.kind)).toEqual(['directive', 'release', 'release', 'release']);
    expect(entries[0]).toMatchObject({ kind: 'directive', type: 'rollBackToEmbedded', actor: 'alice' });
    expect(entries[1]).toMatchObject({ kind: 'release', metadata: { rolledBackFrom: one.id, message: 'first' } });
    expect(entries[2]).toMatchObject({ kind: 'release', id: two.id, metadata: { message: 'second' } });
    expect(entries[3]).toMatchObject({ id: one.id, metadata: { commit: 'aaa', branch: 'main', actor: 'ci' } });
  });

  it('gives each release of a history its rollout with the halt rule, and its device health', async () => {
    const t = track('history-rollout');
    const { id } = await publishRelease(a, {
      ...t,
      launch: launch(),
      payload: { rollout: { percent: 30, haltRule: { failureRate: 0.25, minDevices: 50 } } },
    });
    const response = await get(`/api/console/history?${query(t)}`);
    const { entries, devices } = ConsoleHistoryResponse.parse(await response.json());
    expect(entries[0]).toMatchObject({
      kind: 'release',
      id,
      rollout: { percent: 30, state: 'running', reason: null, haltRule: { failureRate: 0.25, minDevices: 50 } },
      health: { received: 0, failed: 0 },
    });
    expect(devices).toEqual({ last24h: 0, last7d: 0 });
    const detail = ConsoleReleaseDetail.parse(await (await get(`/api/console/releases/${id}`)).json());
    expect(detail.rollout).toEqual({
      percent: 30,
      state: 'running',
      reason: null,
      haltRule: { failureRate: 0.25, minDevices: 50 },
    });
  });

  it('shows a release: assets with their stored sizes, the signed manifests verifying, 14 days of counts', async () => {
    const body = launch();
    const image = fileOf(randomBytes(1234), 'image/png', '.png');
    const { id } = await publishRelease(a, { ...track('detail-1'), launch: body, assets: [image] });
    const response = await get(`/api/console/releases/${id}`);
    expect(response.status).toBe(200);
    const detail = ConsoleReleaseDetail.parse(await response.json());
    expect(detail.assets.map((asset) => [asset.launch, asset.size])).toEqual([
      [true, body.body.length],
      [false, 1234],
    ]);
    expect(detail.manifests.map((m) => m.namespace).sort()).toEqual(['expo', 'ota']);
    expect(detail.manifests.every((m) => m.verifies)).toBe(true);
    expect(JSON.parse(detail.manifests[0]!.body).id).toBe(id);
    expect(detail.daily.adopted).toHaveLength(14);
    expect(detail.daily.failed).toHaveLength(14);
    expect(detail.health).toEqual({ received: 0, failed: 0 });
  });

  it('shows the bundle patches to a release’s launch bundle, from earlier releases and an embedded bundle, with their sizes', async () => {
    const t = track('detail-patches');
    const script = (bytes: Buffer) => fileOf(bytes, 'application/javascript', '.bundle');
    const detailOf = async (id: string) =>
      ConsoleReleaseDetail.parse(await (await get(`/api/console/releases/${id}`)).json());
    // Made in the background after a publish or a registration: wait until none is pending.
    const settled = async (id: string) => {
      const { patches } = await detailOf(id);
      return patches.length > 0 && patches.every((patch) => patch.state !== 'pending') ? patches : undefined;
    };
    const first = Buffer.from(bundleText(2_000));
    // A one-line change: the patch is far smaller than the compressed bundle.
    const second = Buffer.from(first.toString().replace('function _', 'function changed_'));
    const one = await publishRelease(a, { ...t, launch: script(first) });
    // A track's first release has nothing to patch from.
    expect(await detailOf(one.id)).toMatchObject({ patches: [], patchMaxRatio: 0.5 });

    const two = await publishRelease(a, { ...t, launch: script(second) });
    await expect.poll(() => settled(two.id)).toBeDefined();
    const fullBytes = zlib.brotliCompressSync(second).length;
    const [fromOne] = (await settled(two.id))!;
    expect(fromOne).toEqual({
      base: { kind: 'release', updateId: one.id },
      state: 'ready',
      bytes: expect.any(Number),
      fullBytes,
    });
    expect(fromOne!.bytes).toBeLessThan(fullBytes / 4);

    // A build's embedded bundle, registered for the track's platform and runtime version.
    const embeddedId = randomUUID();
    const registered = await a.authed(
      `/api/updates/embedded?${new URLSearchParams({ platform: t.platform, runtimeVersion: t.runtimeVersion, updateId: embeddedId })}`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: new Uint8Array(Buffer.from(first.toString().replace('return', 'return /* embedded */'))),
      },
    );
    expect(registered.status).toBe(201);
    await expect.poll(async () => (await settled(two.id))?.length).toBe(2);
    expect((await detailOf(two.id)).patches).toContainEqual({
      base: { kind: 'embedded', updateId: embeddedId },
      state: 'ready',
      bytes: expect.any(Number),
      fullBytes,
    });

    // Unrelated bytes: every patch is made but none is small enough to offer.
    const three = await publishRelease(a, { ...t, launch: script(randomBytes(2_048)) });
    await expect.poll(async () => (await settled(three.id))?.length).toBe(3);
    const larger = (await detailOf(three.id)).patches;
    expect(larger.map((patch) => patch.base).sort((x, y) => x.updateId.localeCompare(y.updateId))).toEqual(
      [
        { kind: 'release', updateId: one.id },
        { kind: 'release', updateId: two.id },
        { kind: 'embedded', updateId: embeddedId },
      ].sort((x, y) => x.updateId.localeCompare(y.updateId)),
    );
    for (const patch of larger) {
      expect(patch.state).toBe('larger');
      expect(patch.bytes!).toBeGreaterThan(patch.fullBytes! * 0.5);
    }
  });

  it('the track list open consoles share shows a publish at once, here and from another instance', async () => {
    const listed = async () =>
      ConsoleTracksResponse.parse(await (await get('/api/console/tracks')).json()).tracks.map((x) => x.runtimeVersion);
    await listed(); // a shared read is now fresh
    const here = track('shared-list-here');
    await publishRelease(a, { ...here, launch: launch() });
    expect(await listed()).toContain(here.runtimeVersion);
    if (!b) return;
    const there = track('shared-list-there');
    await publishRelease(b, { ...there, launch: launch() });
    await expect.poll(listed).toContain(there.runtimeVersion);
  });

  it('counts the devices that ran a release and those that reported it failed, per UTC day and on its track', async () => {
    const t = track('devices-1');
    const { id } = await publishRelease(a, { ...t, launch: launch() });
    const check = (device: string, extra: Record<string, string>) =>
      fetch(`${a.url}/api/updates/manifest`, {
        headers: { ...clientHeaders('expo', t), 'eas-client-id': device, ...extra },
      }).then((response) => response.arrayBuffer());
    const [one, two] = [randomUUID(), randomUUID()];
    await check(one, { 'expo-current-update-id': id });
    await check(two, { 'expo-current-update-id': id });
    await check(two, { 'expo-recent-failed-update-ids': `"${id}"` });
    // Reports are written in batches (DeviceReports): wait until both devices are in.
    const detail = async () => ConsoleReleaseDetail.parse(await (await get(`/api/console/releases/${id}`)).json());
    await expect.poll(async () => (await detail()).health).toEqual({ received: 2, failed: 1 });
    const release = await detail();
    expect(release.adoption).toEqual({ last24h: 2, last7d: 2 });
    expect(release.daily.adopted.at(-1)?.devices).toBe(2);
    expect(release.daily.failed.at(-1)?.devices).toBe(1);
    expect(release.daily.adopted.slice(0, -1).every((day) => day.devices === 0)).toBe(true);
    const { tracks } = ConsoleTracksResponse.parse(await (await get('/api/console/tracks')).json());
    expect(tracks.find((x) => x.runtimeVersion === t.runtimeVersion)).toMatchObject({
      adoption24h: 2,
      failureRate: 0.5,
    });
    // The history gives each release its health, and the track the devices seen on it.
    const history = ConsoleHistoryResponse.parse(await (await get(`/api/console/history?${query(t)}`)).json());
    expect(history.entries[0]).toMatchObject({ id, health: { received: 2, failed: 1 } });
    expect(history.devices).toEqual({ last24h: 2, last7d: 2 });
    expect(release.trackDevices).toEqual({ last24h: 2, last7d: 2 });

    // A device that moves on to the track's next release is one device of the track, not two;
    // a device of another track is not counted.
    const next = await publishRelease(a, { ...t, launch: launch() });
    const three = randomUUID();
    await check(one, { 'expo-current-update-id': next.id });
    await check(three, { 'expo-current-update-id': next.id });
    const elsewhere = track('devices-2');
    const other = await publishRelease(a, { ...elsewhere, launch: launch() });
    await fetch(`${a.url}/api/updates/manifest`, {
      headers: {
        ...clientHeaders('expo', elsewhere),
        'eas-client-id': randomUUID(),
        'expo-current-update-id': other.id,
      },
    }).then((response) => response.arrayBuffer());
    const devicesOf = async (on: typeof t) =>
      ConsoleHistoryResponse.parse(await (await get(`/api/console/history?${query(on)}`)).json()).devices;
    await expect.poll(() => devicesOf(elsewhere)).toEqual({ last24h: 1, last7d: 1 });
    await expect.poll(() => devicesOf(t)).toEqual({ last24h: 3, last7d: 3 });
  });

  it('streams a publish, a rollout change and a directive made on this instance as they happen', async () => {
    const t = track('events-local');
    const stream = await openEventStream(`${a.url}/api/console/events`, viewer);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const about = (e: { data: string }) =>
        (JSON.parse(e.data) as ConsoleEvent).type === 'track' && e.data.includes(t.runtimeVersion);
      const published = publishRelease(a, { ...t, launch: launch(), payload: { rollout: { percent: 10 } } });
      const event = JSON.parse((await stream.next(about)).data) as ConsoleEvent;
      expect(event).toEqual({ type: 'track', app: 'default', ...t, origin: 'local' });
      const { id } = await published;
      await stream.next(() => true);
      const count = () => stream.raw().split('event: track').length;
      const before = count();
      const change = await a.authed(`/api/updates/rollouts/${id}`, {
        method: 'POST',
        body: JSON.stringify({ action: 'percent', percent: 50 }),
      });
      expect(change.status).toBe(200);
      await expect.poll(count).toBeGreaterThan(before);
    } finally {
      stream.close();
    }
  });

  it('streams what another instance changed (PostgreSQL NOTIFY), marked remote', async () => {
    if (!b) return; // one instance per SQLite file: nothing else can change a track
    const t = track('events-remote');
    const stream = await openEventStream(`${a.url}/api/console/events`, viewer);
    try {
      await publishRelease(b, { ...t, launch: launch() });
      const event = await stream.next((e) => e.data.includes(t.runtimeVersion));
      expect(JSON.parse(event.data)).toEqual({ type: 'track', app: 'default', ...t, origin: 'remote' });
    } finally {
      stream.close();
    }
  });
});
