import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetGcResponse, type RolloutState } from '@ferry/contracts';
import { afterEach, expect, it } from 'vitest';
import { sourceOfEncodedForm } from '../../src/ota/gc/asset-collector.js';
import { openDatabase } from '../../src/storage/database.js';
import { assetHashOfKey, updateAssetKey } from '../../src/storage/objects/object-key.js';
import type { ObjectStore } from '../../src/storage/objects/object-store.js';
import { createTestDatabase, describeEachEngine, type EngineName, type TestDatabase } from '../support/engines.js';
import { downloadAndVerify, fetchManifestLikeExpo, sha256Base64Url } from '../support/expo-client.js';
import { describeEachStore, type GcTestStore, type StoreName, startGcStore } from '../support/gc-stores.js';
import { fileOf, hashOfBytes, publishRelease } from '../support/publisher.js';
import { type SpawnedServer, spawnServer } from '../support/spawn-server.js';
import { TEST_RELEASE_TOKEN, TEST_SIGNING, type TestServer } from '../support/test-server.js';

/**
 * kill -9 during garbage collection, on both engines and both object stores. The server runs as a
 * child process with a gate (support/delete-gate.mjs) that lets a chosen number of deletions
 * through and holds the rest: once it says it is holding, the collection is half-way with
 * deletions in flight, and the process is killed there. Twice: once while it deletes assets, once
 * while it deletes compressed forms. After each kill a new process must serve every servable
 * manifest with every asset it lists, and the last, ungated run must finish the job.
 */

const GATE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../support/delete-gate.mjs');

interface Track {
  channel: 'production';
  platform: 'ios' | 'android';
  runtimeVersion: string;
}
interface Asset {
  hash: string;
  url: string;
  key: string;
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

describeEachEngine('asset garbage collection killed mid-way', (engine: EngineName) => {
  describeEachStore('kill -9', (storeName: StoreName) => {
    it('leaves every servable manifest and asset downloadable, and the next run finishes the job', async () => {
      const store: GcTestStore = await startGcStore(storeName);
      cleanups.push(() => store.close());
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-gc-crash-'));
      cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      let database: TestDatabase | undefined;
      if (engine === 'postgres') {
        database = await createTestDatabase('postgres');
        cleanups.push(() => database!.drop());
      }
      const env: Record<string, string> = {
        ...store.env(),
        DATA_DIR: dataDir,
        ...(database ? { DATABASE_URL: database.location, DATABASE_POOL_SIZE: '3' } : {}),
        FERRY_AREAS: 'ota',
        OTA_RELEASE_TOKEN: TEST_RELEASE_TOKEN,
        OTA_SIGNING_KEY: TEST_SIGNING.privateKeyPem,
        OTA_SIGNING_CERT: TEST_SIGNING.certificatePem,
        ASSET_GC_GRACE_SECONDS: '0',
        RELEASE_RATE_LIMIT_PER_MINUTE: '100000',
      };
      const inspector: ObjectStore = store.inspect(env, dataDir);

      const start = async (holdDeletesAfter?: number): Promise<{ child: SpawnedServer; url: string }> => {
        const child = spawnServer({
          ...env,
          ...(holdDeletesAfter === undefined
            ? {}
            : { NODE_OPTIONS: `--import=${GATE}`, FERRY_TEST_HOLD_DELETES_AFTER: String(holdDeletesAfter) }),
        });
        cleanups.push(() => child.stop('SIGKILL'));
        return { child, url: await child.listening };
      };
      // publishRelease only needs a way to call the server with the release token.
      const client = (url: string) =>
        ({
          authed: (route: string, init: RequestInit = {}) =>
            fetch(url + route, {
              ...init,
              headers: { authorization: `Bearer ${TEST_RELEASE_TOKEN}`, 'content-type': 'application/json' },
            }),
        }) as unknown as TestServer;

      // 1. Three tracks: many releases with assets of their own, and one with rollouts.
      const first = await start(40);
      const ios: Track = { channel: 'production', platform: 'ios', runtimeVersion: '9.0.0(1)' };
      const android: Track = { ...ios, platform: 'android' };
      const rollouts: Track = { ...ios, runtimeVersion: '9.1.0(1)' };
      const publish = async (track: Track, names: string[]) => {
        const files = names.map((name) =>
          name.endsWith('.png')
            ? fileOf(`${name}:`.repeat(200), 'image/png', '.png')
            : fileOf(`${name}:`.repeat(200), 'application/javascript', '.bundle'),
        );
        const { id, urls } = await publishRelease(client(first.url), {
          ...track,
          launch: files[0]!,
          assets: files.slice(1),
        });
        const assets = files.map((file): Asset => {
          const hash = hashOfBytes(file.body);
          return {
            hash,
            url: urls.get(hash)!,
            key: updateAssetKey('default', track.channel, track.runtimeVersion, hash),
          };
        });
        return { id, assets };
      };
      const iosReleases = [];
      for (let n = 1; n <= 20; n++) iosReleases.push(await publish(ios, [`ios-${n}.js`, `ios-${n}.png`, 'font.js']));
      const androidReleases = [];
      for (let n = 1; n <= 5; n++) androidReleases.push(await publish(android, [`android-${n}.js`]));
      const rolloutReleases = [];
      for (let n = 1; n <= 6; n++) rolloutReleases.push(await publish(rollouts, [`r-${n}.js`, `r-${n}.png`]));
      // r6 running (the head), r5 reverted, r4 the fallback, r3 superseded, r2 halted, r1 complete.
      const states: Record<number, RolloutState> = { 2: 'halted', 3: 'superseded', 5: 'reverted', 6: 'running' };
      const db = openDatabase(
        database ? database.target : { engine: 'sqlite', file: path.join(dataDir, 'ferry.sqlite') },
      );
      cleanups.push(() => db.close());
      for (const [n, state] of Object.entries(states)) {
        await db.db
          .insertInto('rollouts')
          .values({
            release_id: rolloutReleases[Number(n) - 1]!.id,
            percent: 10,
            state,
            halt_failure_rate: null,
            halt_min_devices: null,
            reason: null,
            updated_at: Date.now(),
          })
          .execute();
      }

      // With one release kept per track, what is servable: each head, the fallback, the halted rollout.
      const servable = [
        iosReleases.at(-1)!,
        androidReleases.at(-1)!,
        rolloutReleases[5]!,
        rolloutReleases[3]!,
        rolloutReleases[1]!,
      ];
      const servableKeys = new Set(servable.flatMap((release) => release.assets.map((asset) => asset.key)));
      const listed = async (prefix: string) => {
        const keys: string[] = [];
        for await (const object of inspector.list(prefix)) keys.push(object.key);
        return keys;
      };
      /** Stored objects no servable release needs: unreferenced assets and forms of anything else. */
      const collectable = async () => {
        const assets = (await listed('updates/')).filter((key) => assetHashOfKey(key) && !servableKeys.has(key));
        const forms = (await listed('encoded/')).filter((key) => !servableKeys.has(sourceOfEncodedForm(key)!));
        return { assets: assets.length, forms: forms.length };
      };
      const before = await collectable();
      // ios 1–19 (a bundle, its two forms, an image), android 1–4 (a bundle and two forms), r1, r3, r5.
      expect(before).toEqual({ assets: 19 * 2 + 4 + 3 * 2, forms: 19 * 2 + 4 * 2 + 3 * 2 });

      /** Through a process that started after the kill: every manifest and every servable asset. */
      const expectAllServable = async (url: string) => {
        const here = (assetUrl: string) => {
          const moved = new URL(assetUrl);
          moved.host = new URL(url).host;
          return moved.toString();
        };
        for (const track of [ios, android, rollouts]) {
          const result = await fetchManifestLikeExpo(url, 'expo', track, {
            certificatePem: TEST_SIGNING.certificatePem,
            keyId: 'main',
          });
          expect(result.kind, JSON.stringify(track)).toBe('update');
          if (result.kind !== 'update') continue;
          for (const asset of [result.manifest.launchAsset, ...result.manifest.assets]) {
            await downloadAndVerify({ ...asset, url: here(asset.url) });
          }
        }
        for (const asset of servable.flatMap((release) => release.assets)) {
          const response = await fetch(here(asset.url), { headers: { 'accept-encoding': 'br, gzip' } });
          expect(response.status, asset.url).toBe(200);
          expect(sha256Base64Url(Buffer.from(await response.arrayBuffer()))).toBe(asset.hash);
        }
      };
      const collect = (url: string) =>
        fetch(`${url}/api/updates/gc`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_RELEASE_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ keepPerTrack: 1, dryRun: false }),
        });
      const killMidway = async (server: { child: SpawnedServer; url: string }) => {
        const request = collect(server.url).catch((error: unknown) => error);
        await server.child.waitForOutput(/deletions held after/);
        await server.child.stop('SIGKILL');
        // The answer never came: the process died with deletions in flight.
        expect(await request).toBeInstanceOf(Error);
      };

      // 2. Killed while deleting assets: 40 deletions done, the next ones in flight.
      await killMidway(first);
      const afterFirst = await collectable();
      expect(afterFirst).toEqual({ assets: before.assets - 40, forms: before.forms });

      // 3. A new process serves everything; killed again, this time while deleting compressed forms.
      const second = await start(afterFirst.assets + 10);
      await expectAllServable(second.url);
      await killMidway(second);
      const afterSecond = await collectable();
      expect(afterSecond).toEqual({ assets: 0, forms: before.forms - 10 });

      // 4. An ungated run finishes the job: only what servable releases need is left.
      const third = await start();
      await expectAllServable(third.url);
      const finished = await collect(third.url);
      expect(finished.status).toBe(200);
      const answer = AssetGcResponse.parse(await finished.json());
      expect(answer.collected).toMatchObject({ assets: 0, encodedForms: afterSecond.forms });
      expect(answer.failed.objects).toBe(0);
      expect(await collectable()).toEqual({ assets: 0, forms: 0 });
      await expectAllServable(third.url);
    });
  });
});
