import { randomUUID } from 'node:crypto';
import { AssetGcResponse, type RolloutState } from '@ferry/contracts';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { sourceOfEncodedForm } from '../../src/ota/gc/asset-collector.js';
import { updateAssetKey } from '../../src/storage/objects/object-key.js';
import { describeEachEngine, type EngineName } from '../support/engines.js';
import { downloadAndVerify, fetchManifestLikeExpo, sha256Base64Url } from '../support/expo-client.js';
import { describeEachStore, type GcTestStore, type StoreName, startGcStore } from '../support/gc-stores.js';
import { type AssetFile, fileOf, hashOfBytes, publishRelease, uploadAssets } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Asset garbage collection over real HTTP, on both engines and both object stores: what it keeps
 * (the newest N per track, the head, the rollout fallback, running and halted rollouts, young
 * objects), what it deletes (unreferenced assets and their compressed forms), and that a dry run
 * deletes nothing. Every test has a server (and database, and bucket prefix) of its own, since a
 * collection looks at the whole store.
 */

const HOUR = 3600 * 1000;

interface Track {
  channel: 'development' | 'production';
  platform: 'ios' | 'android';
  runtimeVersion: string;
}
interface PublishedAsset {
  name: string;
  hash: string;
  url: string;
  key: string;
}
interface Published {
  id: string;
  track: Track;
  assets: PublishedAsset[];
}

/** An asset made from a name: `.png` are images (stored as they are), the rest JavaScript (compressed). */
const fileFor = (name: string, nonce: string): AssetFile => {
  const body = `${name}:${nonce}:`.repeat(Math.ceil(1500 / (name.length + nonce.length + 2)));
  return name.endsWith('.png')
    ? fileOf(Buffer.from(body), 'image/png', '.png')
    : fileOf(Buffer.from(body), 'application/javascript', '.bundle');
};

describeEachEngine('asset garbage collection', (engine: EngineName) => {
  describeEachStore('POST /api/updates/gc', (storeName: StoreName) => {
    let store: GcTestStore;
    let server: TestServer;
    let nonce: string;
    let env: Record<string, string>;
    let trackCounter = 0;

    beforeAll(async () => {
      store = await startGcStore(storeName);
      return () => store.close();
    });
    beforeEach(async () => {
      nonce = randomUUID();
      // No bundle patches: made in the background between two collections, they would change what
      // the second one finds (bundle-patches-gc.test.ts covers patches and collections).
      env = { ...store.env(), ASSET_GC_GRACE_SECONDS: '3600', PATCH_BASES: '0' };
      server = await startTestServer(engine, { env });
    });
    afterEach(async () => server?.close());

    const freshTrack = (over: Partial<Track> = {}): Track => ({
      channel: 'production',
      platform: 'ios',
      runtimeVersion: `7.${++trackCounter}.0(1)`,
      ...over,
    });

    /** Publishes a release whose launch asset is the first name and whose other assets are the rest. */
    const publish = async (track: Track, names: string[]): Promise<Published> => {
      const files = names.map((name) => fileFor(name, nonce));
      const { id, urls } = await publishRelease(server, {
        ...track,
        launch: files[0]!,
        assets: files.slice(1),
      });
      return {
        id,
        track,
        assets: names.map((name, index) => {
          const hash = hashOfBytes(files[index]!.body);
          return {
            name,
            hash,
            url: urls.get(hash)!,
            key: updateAssetKey('default', track.channel, track.runtimeVersion, hash),
          };
        }),
      };
    };

    const gc = async (body: Record<string, unknown>) => {
      const response = await server.authed('/api/updates/gc', { method: 'POST', body: JSON.stringify(body) });
      expect(response.status, await response.clone().text()).toBe(200);
      return AssetGcResponse.parse(await response.json());
    };

    const storedKeys = async (prefix: string): Promise<Set<string>> => {
      const keys = new Set<string>();
      for await (const object of server.app.objectStore.list(prefix)) keys.add(object.key);
      return keys;
    };
    /** The compressed forms stored for an asset key. */
    const formsOf = async (key: string): Promise<string[]> =>
      [...(await storedKeys('encoded/'))].filter((form) => sourceOfEncodedForm(form) === key);
    const everything = async () => new Set([...(await storedKeys('updates/')), ...(await storedKeys('encoded/'))]);

    const ageEverything = () => store.ageEverything(server.dataDir, 2 * HOUR);

    /** A URL of the first server, on another server's origin. */
    const on = (reader: TestServer, url: string) => {
      const moved = new URL(url);
      const origin = new URL(reader.url);
      moved.protocol = origin.protocol;
      moved.host = origin.host;
      return moved.toString();
    };

    /**
     * Checks through a second instance that starts after the collection, on the same database and
     * store: the first one may still hold deleted assets in memory (served assets are kept there),
     * so only a cold instance shows what the store itself still serves.
     */
    const verify = async (expected: { kept?: PublishedAsset[]; gone?: PublishedAsset[]; tracks?: Track[] }) => {
      const reader = await startTestServer(engine, {
        database: server.database,
        env: { ...env, DATA_DIR: server.dataDir },
      });
      try {
        for (const asset of expected.kept ?? []) {
          // Downloadable as a device downloads it (brotli or gzip when stored), with the right bytes.
          const response = await fetch(on(reader, asset.url), { headers: { 'accept-encoding': 'br, gzip' } });
          expect(response.status, `${asset.name} ${asset.url}`).toBe(200);
          expect(sha256Base64Url(Buffer.from(await response.arrayBuffer())), asset.name).toBe(asset.hash);
          if (!asset.name.endsWith('.png')) {
            expect(response.headers.get('content-encoding'), asset.name).toBe('br');
            expect(await formsOf(asset.key), asset.name).toHaveLength(2);
          }
        }
        for (const asset of expected.gone ?? []) {
          expect((await fetch(on(reader, asset.url))).status, `${asset.name} ${asset.url}`).toBe(404);
          expect(await server.app.objectStore.head(asset.key), asset.name).toBeUndefined();
          expect(await formsOf(asset.key), asset.name).toEqual([]);
        }
        // What every device of the track is served: the manifest, then each of its assets.
        for (const track of expected.tracks ?? []) {
          const result = await fetchManifestLikeExpo(reader.url, 'expo', track, {
            certificatePem: reader.certificatePem,
            keyId: 'main',
          });
          expect(result.kind).toBe('update');
          if (result.kind !== 'update') continue;
          for (const asset of [result.manifest.launchAsset, ...result.manifest.assets]) {
            await downloadAndVerify({ ...asset, url: on(reader, asset.url) });
          }
        }
      } finally {
        await reader.close();
      }
    };
    const auditEvents = () =>
      server.app.database.db.selectFrom('audit_events').selectAll().where('type', '=', 'assets.collected').execute();

    it('needs the release token and refuses invalid input with the common error body', async () => {
      const anonymous = await fetch(`${server.url}/api/updates/gc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ keepPerTrack: 1, dryRun: false }),
      });
      expect(anonymous.status).toBe(401);
      for (const body of [
        { keepPerTrack: 0 },
        { keepPerTrack: 1.5 },
        { keepPerTrack: 1001 },
        { keepPerTrack: '3' },
        { dryRun: 'no' },
        { dryRun: false, force: true },
        { actor: 'a\u0000b' },
        [],
      ]) {
        const response = await server.authed('/api/updates/gc', { method: 'POST', body: JSON.stringify(body) });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect((await response.json()).error.code).toBe('VALIDATION_FAILED');
      }
      expect(await auditEvents()).toEqual([]);
    });

    it('a dry run deletes nothing and answers what an applied run then deletes', async () => {
      const track = freshTrack();
      await publish(track, ['one.js', 'a.png']);
      await publish(track, ['two.js', 'b.png']);
      const newest = await publish(track, ['three.js', 'c.png']);
      ageEverything();
      const before = await everything();

      const dry = await gc({ keepPerTrack: 1 });
      expect(dry.dryRun).toBe(true);
      // one.js and two.js with two compressed forms each, a.png and b.png.
      expect(dry.collected).toMatchObject({ objects: 8, assets: 4, encodedForms: 4 });
      expect(dry.collected.bytes).toBeGreaterThan(0);
      expect(dry.sample).toHaveLength(8);
      expect(await everything()).toEqual(before);
      expect(await auditEvents()).toEqual([]);
      // Dry run is the default; keepPerTrack defaults to 10.
      expect((await gc({})).collected.objects).toBe(0);

      const applied = await gc({ keepPerTrack: 1, dryRun: false });
      expect(applied.dryRun).toBe(false);
      expect(applied.collected).toEqual(dry.collected);
      expect(new Set(applied.sample)).toEqual(new Set(dry.sample));
      expect(await everything()).toEqual(new Set([...before].filter((key) => !dry.sample.includes(key))));
      await verify({ kept: newest.assets, tracks: [track] });
    });

    it('keeps the newest N releases of each track and deletes the rest, with their compressed forms', async () => {
      const ios = freshTrack();
      const android = { ...ios, platform: 'android' as const };
      const development = { ...ios, channel: 'development' as const };
      // Four iOS releases sharing a font; the oldest image is also listed by Android's newest.
      const iosReleases = [
        await publish(ios, ['ios-1.js', 'font.js', 'shared-old.png']),
        await publish(ios, ['ios-2.js', 'font.js', 'ios-2.png']),
        await publish(ios, ['ios-3.js', 'font.js', 'ios-3.png']),
        await publish(ios, ['ios-4.js', 'font.js', 'ios-4.png']),
      ];
      const androidReleases = [
        await publish(android, ['android-1.js', 'android-1.png']),
        await publish(android, ['android-2.js', 'shared-old.png']),
      ];
      // Another channel is another track, and another key space.
      const devReleases = [
        await publish(development, ['dev-1.js']),
        await publish(development, ['dev-2.js']),
        await publish(development, ['dev-3.js']),
      ];
      ageEverything();

      const answer = await gc({ keepPerTrack: 2, dryRun: false, actor: 'nightly-gc', runId: '99' });
      expect(answer).toMatchObject({ keepPerTrack: 2, graceSeconds: 3600, tracks: 3, releases: 9, releasesKept: 6 });
      // ios-1.js, ios-2.js, dev-1.js (each with two forms) and ios-2.png.
      expect(answer.collected).toMatchObject({ objects: 10, assets: 4, encodedForms: 6 });
      expect(answer.failed).toEqual({ objects: 0, bytes: 0 });
      expect(answer.young).toEqual({ objects: 0, bytes: 0 });

      const byName = (releases: Published[], name: string) =>
        releases.flatMap((release) => release.assets).find((asset) => asset.name === name)!;
      await verify({
        gone: [
          ...['ios-1.js', 'ios-2.js', 'ios-2.png'].map((name) => byName(iosReleases, name)),
          byName(devReleases, 'dev-1.js'),
        ],
        kept: [
          ...[...iosReleases.slice(2), ...androidReleases, ...devReleases.slice(1)].flatMap(
            (release) => release.assets,
          ),
          // Kept because Android's newest lists it, though the iOS release that brought it is gone.
          byName(iosReleases, 'shared-old.png'),
        ],
        tracks: [ios, android, development],
      });

      const [event, ...more] = await auditEvents();
      expect(more).toEqual([]);
      expect(event).toMatchObject({ actor: 'nightly-gc', channel: null, release_id: null });
      const details = typeof event!.details === 'string' ? JSON.parse(event!.details) : event!.details;
      expect(details).toMatchObject({
        keepPerTrack: 2,
        graceSeconds: 3600,
        runId: '99',
        collected: answer.collected,
        failed: { objects: 0, bytes: 0 },
      });

      // Nothing left to do: a second run deletes nothing.
      expect((await gc({ keepPerTrack: 2, dryRun: false })).collected.objects).toBe(0);
    });

    it('keeps the head, the rollout fallback and running or halted rollouts, however old', async () => {
      const track = freshTrack();
      const releases: Published[] = [];
      for (let n = 1; n <= 6; n++) releases.push(await publish(track, [`r${n}.js`, `r${n}.png`]));
      // r6 running (head), r5 reverted, r4 complete without a rollout (the fallback), r3 superseded,
      // r2 halted, r1 complete without a rollout but older than the fallback.
      const states: Record<number, RolloutState> = { 2: 'halted', 3: 'superseded', 5: 'reverted', 6: 'running' };
      for (const [n, state] of Object.entries(states)) {
        await server.app.database.db
          .insertInto('rollouts')
          .values({
            release_id: releases[Number(n) - 1]!.id,
            percent: 10,
            state,
            halt_failure_rate: null,
            halt_min_devices: null,
            reason: null,
            updated_at: Date.now(),
          })
          .execute();
      }
      // A second track whose only complete release is its oldest: with keep 1 it stays as the fallback.
      const other = freshTrack();
      const complete = await publish(other, ['complete.js']);
      const running = await publish(other, ['running.js']);
      await server.app.database.db
        .insertInto('rollouts')
        .values({
          release_id: running.id,
          percent: 50,
          state: 'running',
          halt_failure_rate: 0.02,
          halt_min_devices: 100,
          reason: null,
          updated_at: Date.now(),
        })
        .execute();
      ageEverything();

      const answer = await gc({ keepPerTrack: 1, dryRun: false });
      expect(answer.releasesKept).toBe(5);
      const assetsOf = (...ns: number[]) => ns.flatMap((n) => releases[n - 1]!.assets);
      await verify({
        kept: [...assetsOf(2, 4, 6), ...complete.assets, ...running.assets],
        gone: assetsOf(1, 3, 5),
        tracks: [track, other],
      });
    });

    it('never deletes an object younger than the grace period', async () => {
      const track = freshTrack();
      const old = await publish(track, ['old.js', 'old.png']);
      const current = await publish(track, ['current.js']);
      // Uploaded by a publish that has not registered its release yet.
      const pendingFile = fileFor('pending.js', nonce);
      await uploadAssets(server, { channel: track.channel, runtimeVersion: track.runtimeVersion }, [pendingFile]);

      // The local store compresses an asset when it is uploaded; on S3 the publish does it.
      const formsAtUpload = storeName === 'local' ? 2 : 0;

      // Everything is younger than an hour: nothing goes.
      const young = await gc({ keepPerTrack: 1, dryRun: false });
      expect(young.collected.objects).toBe(0);
      // old.js and its two forms, old.png, pending.js (and its forms).
      expect(young.young.objects).toBe(4 + 1 + formsAtUpload);
      await verify({ kept: old.assets });

      // Two hours later, another publish is half-way: it uploaded `later.js` a moment ago.
      ageEverything();
      const laterFile = fileFor('later.js', nonce);
      await uploadAssets(server, { channel: track.channel, runtimeVersion: track.runtimeVersion }, [laterFile]);
      const answer = await gc({ keepPerTrack: 1, dryRun: false });
      // old.js, old.png and pending.js went (pending.js was never registered in two hours).
      expect(answer.collected).toMatchObject({ assets: 3, encodedForms: 2 + formsAtUpload });
      expect(answer.young.objects).toBe(1 + formsAtUpload);
      await verify({ gone: old.assets, kept: current.assets });

      // The half-way publish registers its release: its asset is there, with its compressed forms.
      const later = await publish(track, ['later.js']);
      expect(later.assets[0]!.hash).toBe(hashOfBytes(laterFile.body));
      await verify({ kept: later.assets, tracks: [track] });
    });

    it('deletes compressed forms whose asset is already gone, and never forms of a stored asset', async () => {
      const track = freshTrack();
      const first = await publish(track, ['first.js']);
      const second = await publish(track, ['second.js']);
      // As a collection stopped between deleting an asset and its forms would leave it.
      await server.app.objectStore.delete(first.assets[0]!.key);
      expect(await formsOf(first.assets[0]!.key)).toHaveLength(2);
      ageEverything();

      const answer = await gc({ keepPerTrack: 1, dryRun: false });
      expect(answer.collected).toMatchObject({ objects: 2, assets: 0, encodedForms: 2 });
      expect(await formsOf(first.assets[0]!.key)).toEqual([]);
      await verify({ kept: second.assets, tracks: [track] });
    });
  });
});
