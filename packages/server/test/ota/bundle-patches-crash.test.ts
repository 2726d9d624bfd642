import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { createTestDatabase, describeEachEngine, type EngineName } from '../support/engines.js';
import { bundleText, downloadLaunchAssetLikeExpo, settledPatches } from '../support/patch-client.js';
import { fileOf, hashOfBytes, publishRelease } from '../support/publisher.js';
import { spawnServer } from '../support/spawn-server.js';
import { TEST_RELEASE_TOKEN, TEST_SIGNING, type TestServer } from '../support/test-server.js';

/**
 * kill -9 while a bundle patch is being made: the server runs as a child process with a gate
 * (support/patch-gate.mjs) that holds the diff once the patch is claimed. Killed there, the queued
 * work is in the database with the publish; a new process takes the dead one's claim over and
 * makes the patch, which a device then gets.
 */

const GATE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../support/patch-gate.mjs');

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

describeEachEngine('bundle patches killed mid-way', (engine: EngineName) => {
  it('a patch whose maker was killed with -9 is made by the next process, and devices get it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-patch-crash-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const database = engine === 'postgres' ? await createTestDatabase('postgres') : undefined;
    if (database) cleanups.push(() => database.drop());
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.location } : {}),
      FERRY_AREAS: 'ota',
      OTA_RELEASE_TOKEN: TEST_RELEASE_TOKEN,
      OTA_SIGNING_KEY: TEST_SIGNING.privateKeyPem,
      OTA_SIGNING_CERT: TEST_SIGNING.certificatePem,
      OBJECT_URL_SIGNING_SECRET: 'b'.repeat(64),
    };
    const client = (url: string) =>
      ({
        url,
        authed: (route: string, init: RequestInit = {}) =>
          fetch(url + route, {
            ...init,
            headers: { authorization: `Bearer ${TEST_RELEASE_TOKEN}`, 'content-type': 'application/json' },
          }),
      }) as unknown as TestServer;

    const gated = spawnServer({ ...env, NODE_OPTIONS: `--import=${GATE}`, FERRY_TEST_HOLD_PATCHES: '1' });
    cleanups.push(() => gated.stop('SIGKILL'));
    const gatedUrl = await gated.listening;
    const track = { channel: 'production', platform: 'android', runtimeVersion: '36.1.0' } as const;
    const first = Buffer.from(bundleText(4_000));
    const second = Buffer.from(first.toString().replace('const _', 'const renamed_'));
    const launch = (bytes: Buffer) => fileOf(bytes, 'application/javascript', '.bundle');
    const a = await publishRelease(client(gatedUrl), { ...track, launch: launch(first) });
    const b = await publishRelease(client(gatedUrl), { ...track, launch: launch(second) });
    // The publish answered; the patch is claimed and its diff under way.
    await gated.waitForOutput(/ferry-test: patch held/);
    const listed = await (await client(gatedUrl).authed(`/api/updates/releases?${new URLSearchParams(track)}`)).json();
    expect((listed as { releases: Array<{ patches: Array<{ state: string }> }> }).releases[0]!.patches).toEqual([
      expect.objectContaining({ state: 'pending' }),
    ]);
    await gated.stop('SIGKILL');

    const next = spawnServer(env);
    cleanups.push(() => next.stop('SIGKILL'));
    const nextUrl = await next.listening;
    const [patch] = await settledPatches(client(nextUrl), track, b.id);
    expect(patch).toMatchObject({ base: { kind: 'release', updateId: a.id }, state: 'ready' });
    const download = await downloadLaunchAssetLikeExpo(
      `${nextUrl}/objects/updates/${track.channel}/${track.runtimeVersion}/assets/${hashOfBytes(second)}`,
      { currentUpdateId: a.id, requestedUpdateId: b.id, runningBundle: first },
      hashOfBytes(second),
    );
    expect(download.kind).toBe('patch');
  });
});
