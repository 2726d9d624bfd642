import { randomUUID } from 'node:crypto';
import type { AssetGcResponse } from '@ferry/contracts';
import { afterEach, expect, it } from 'vitest';
import { describeEachEngine, type EngineName } from '../support/engines.js';
import { startGcStore } from '../support/gc-stores.js';
import {
  bundleText,
  downloadLaunchAssetLikeExpo,
  patchRequestHeaders,
  rawGet,
  settledPatches,
} from '../support/patch-client.js';
import { fileOf, hashOfBytes, publishRelease } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Bundle patches and garbage collection, and the patch not worth offering: each test has a server
 * (database and object store) of its own, since a collection looks at the whole store.
 */

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const launch = (bytes: Buffer) => fileOf(bytes, 'application/javascript', '.bundle');
/** The patch objects stored, as the object store lists them. */
const patchObjects = async (server: TestServer): Promise<string[]> => {
  const keys: string[] = [];
  for await (const object of server.app.objectStore.list('patches/')) keys.push(object.key);
  return keys;
};

describeEachEngine('bundle patches and garbage collection', (engine: EngineName) => {
  it('a patch goes with its base or target; one from a registered embedded bundle stays with its target', async () => {
    const server = await startTestServer(engine, { env: { ASSET_GC_GRACE_SECONDS: '0' } });
    servers.push(server);
    const track = { channel: 'production', platform: 'ios', runtimeVersion: '36.2.0' } as const;
    const v1 = Buffer.from(bundleText(3_000));
    const v2 = Buffer.from(v1.toString().replace('const _', 'const two_'));
    const v3 = Buffer.from(v2.toString().replace('render _', 'render three_'));
    const r1 = await publishRelease(server, { ...track, launch: launch(v1) });
    const r2 = await publishRelease(server, { ...track, launch: launch(v2) });
    await settledPatches(server, track, r2.id);
    const embeddedId = randomUUID();
    const registered = await server.authed(
      `/api/updates/embedded?${new URLSearchParams({ platform: 'ios', runtimeVersion: track.runtimeVersion, updateId: embeddedId })}`,
      { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(v1) },
    );
    expect(registered.status).toBe(201);
    const r3 = await publishRelease(server, { ...track, launch: launch(v3) });
    const patches = await settledPatches(server, track, r3.id);
    // From r2 and r1 (the embedded bundle has r1's bytes: one patch serves both).
    expect(patches.map((patch) => [patch.base.updateId, patch.state])).toEqual([
      [r2.id, 'ready'],
      [r1.id, 'ready'],
    ]);
    expect(await patchObjects(server)).toHaveLength(3);

    const gc = async (dryRun: boolean) => {
      const response = await server.authed('/api/updates/gc', {
        method: 'POST',
        body: JSON.stringify({ keepPerTrack: 1, dryRun }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as AssetGcResponse;
    };
    const dry = await gc(true);
    expect(dry.collected.patches).toBe(2);
    expect(await patchObjects(server)).toHaveLength(3);

    const applied = await gc(false);
    // r1's and r2's bundles went, and with them r1→r2 and r2→r3. r1→r3 stays: it was queued after
    // the embedded bundle with r1's bytes was registered, so it is read from that copy.
    expect(applied.collected).toMatchObject({ assets: 2, patches: 2 });
    expect(await patchObjects(server)).toHaveLength(1);
    const listed = await (await server.authed(`/api/updates/releases?${new URLSearchParams(track)}`)).json();
    expect(
      (listed as { releases: Array<{ patches: Array<{ base: { updateId: string } }> }> }).releases[0]!.patches.map(
        (patch) => patch.base.updateId,
      ),
    ).toEqual([r1.id]);
    // A device on r2 now gets the full bundle, never an error.
    const url = server.assetUrl(track, hashOfBytes(v3));
    expect((await rawGet(url, patchRequestHeaders(r2.id, r3.id))).status).toBe(200);

    // The embedded bundle stays registered: a new release gets a patch from it (r1 shipped its
    // bytes: one base, read from the embedded copy), which a collection keeps. r2's bundle is
    // gone: nothing is made from it.
    const v4 = Buffer.from(v3.toString().replace('value _', 'value four_'));
    const r4 = await publishRelease(server, { ...track, launch: launch(v4) });
    const fromEmbedded = await settledPatches(server, track, r4.id);
    expect(fromEmbedded.map((patch) => [patch.base.updateId, patch.state])).toEqual([
      [r3.id, 'ready'],
      [r1.id, 'ready'],
    ]);
    const again = await gc(false);
    // r3's bundle went, with its patch to r4 and the patch to it; the one from the embedded copy to r4 stays.
    expect(again.collected).toMatchObject({ assets: 1, patches: 2 });
    expect(await patchObjects(server)).toHaveLength(1);
    for (const device of [embeddedId, r1.id]) {
      const answer = await rawGet(server.assetUrl(track, hashOfBytes(v4)), patchRequestHeaders(device, r4.id));
      expect(answer.status).toBe(226);
    }
  });

  it('with S3 as the object store, a patch is made from and stored in the bucket, and served', async () => {
    const bucket = await startGcStore('s3');
    try {
      const server = await startTestServer(engine, { env: bucket.env() });
      servers.push(server);
      const track = { channel: 'production', platform: 'ios', runtimeVersion: '36.4.0' } as const;
      const first = Buffer.from(bundleText(2_000));
      const second = Buffer.from(first.toString().replace('const _', 'const s3_'));
      const a = await publishRelease(server, { ...track, launch: launch(first) });
      const b = await publishRelease(server, { ...track, launch: launch(second) });
      const [patch] = await settledPatches(server, track, b.id);
      expect(patch).toMatchObject({ state: 'ready' });
      expect(await patchObjects(server)).toHaveLength(1);
      const download = await downloadLaunchAssetLikeExpo(
        server.assetUrl(track, hashOfBytes(second)),
        { currentUpdateId: a.id, requestedUpdateId: b.id, runningBundle: first },
        hashOfBytes(second),
      );
      expect(download.kind).toBe('patch');
    } finally {
      for (const server of servers.splice(0)) await server.close();
      await bucket.close();
    }
  });

  it('a patch not clearly smaller than the compressed full bundle is recorded and not offered', async () => {
    const server = await startTestServer(engine, { env: { PATCH_MAX_RATIO: '0.001' } });
    servers.push(server);
    const track = { channel: 'production', platform: 'android', runtimeVersion: '36.3.0' } as const;
    const first = Buffer.from(bundleText(2_000));
    const second = Buffer.from(first.toString().replace('const _', 'const other_'));
    const a = await publishRelease(server, { ...track, launch: launch(first) });
    const b = await publishRelease(server, { ...track, launch: launch(second) });
    const [patch] = await settledPatches(server, track, b.id);
    expect(patch).toMatchObject({ state: 'larger' });
    expect(patch!.bytes).toBeGreaterThan(0);
    expect(patch!.bytes!).toBeGreaterThan(patch!.fullBytes! * 0.001);
    const answer = await rawGet(server.assetUrl(track, hashOfBytes(second)), patchRequestHeaders(a.id, b.id));
    expect(answer.status).toBe(200);
    expect(await patchObjects(server)).toEqual([]);
  });
});
