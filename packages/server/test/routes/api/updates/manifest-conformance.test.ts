import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../support/engines.js';
import {
  downloadAndVerify,
  fetchManifestLikeExpo,
  type ManifestResult,
  type Namespace,
} from '../../../support/expo-client.js';
import { fileOf, hashOfBytes, publishRelease } from '../../../support/publisher.js';
import { startTestS3, type TestS3 } from '../../../support/s3.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

const ADAPTERS = ['local', 's3'] as const;
const NAMESPACES: Namespace[] = ['ota', 'expo'];

let trackCounter = 0;
/** Production-shaped runtimeVersion, with the parentheses that must survive keys and URLs. */
const freshRuntimeVersion = () => `3.${++trackCounter}.0(${100 + trackCounter})`;

const bundle = () =>
  fileOf(`console.log(${JSON.stringify(randomUUID())});\n`.repeat(200), 'application/javascript', '.bundle');
const png = () =>
  fileOf(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(3000)]), 'image/png', '.png');
const font = () => fileOf(randomBytes(2000), 'font/ttf', '.ttf');

const expectUpdate = (result: ManifestResult) => {
  if (result.kind !== 'update') throw new Error(`expected a manifest, got ${result.kind}`);
  return result;
};

// Behaves like expo-updates: independent multipart parser, signature checked against the
// certificate, field checks, every asset downloaded and hashed; in both namespaces, on both
// object-store adapters and both database engines.
describeEachEngine('manifest conformance', (engine) => {
  for (const adapter of ADAPTERS) {
    describe(`${adapter} objects`, () => {
      let server: TestServer;
      let s3: TestS3 | undefined;
      let trust: { certificatePem: string; keyId: string };
      beforeAll(async () => {
        s3 = adapter === 's3' ? await startTestS3() : undefined;
        server = await startTestServer(engine, { env: { ...s3?.env, OTA_SIGNING_KEY_ID: 'main' } });
        trust = { certificatePem: server.certificatePem, keyId: 'main' };
      });
      afterAll(async () => {
        await server?.close();
        await s3?.close();
      });

      for (const ns of NAMESPACES) {
        describe(`${ns} namespace`, () => {
          it('serves a published release signed, complete and downloadable', async () => {
            const runtimeVersion = freshRuntimeVersion();
            const launch = bundle();
            const assets = [png(), font()];
            const { id } = await publishRelease(server, {
              channel: 'production',
              platform: 'ios',
              runtimeVersion,
              launch,
              assets,
              payload: { updatePolicy: 2 },
            });

            const result = expectUpdate(
              await fetchManifestLikeExpo(
                server.url,
                ns,
                { platform: 'ios', runtimeVersion, channel: 'production' },
                trust,
              ),
            );
            expect(result.headers.get(`${ns}-protocol-version`)).toBe('1');
            expect(result.headers.get(`${ns}-sfv-version`)).toBe('0');
            expect(result.headers.get('cache-control')).toBe('private, max-age=0');
            const other = ns === 'ota' ? 'expo' : 'ota';
            expect(result.headers.get(`${other}-protocol-version`)).toBeNull();
            expect(result.partHeaders.get('content-type')).toMatch(/^application\/json/);
            expect(result.partHeaders.has(`${other}-signature`)).toBe(false);

            const { manifest } = result;
            expect(manifest.id).toBe(id);
            expect(manifest.runtimeVersion).toBe(runtimeVersion);
            expect(manifest.metadata).toEqual({ channel: 'production', commit: 'c0ffee' });
            expect(manifest.extra).toEqual({
              [`${ns}Client`]: { name: 'Conformance', slug: 'conformance', scheme: 'conformance' },
              updatePolicy: 2,
            });
            expect(manifest.launchAsset).toMatchObject({
              hash: hashOfBytes(launch.body),
              contentType: 'application/javascript',
              fileExtension: '.bundle',
            });
            expect(manifest.assets.map((a) => a.fileExtension)).toEqual(['.png', '.ttf']);

            for (const asset of [manifest.launchAsset, ...manifest.assets]) {
              const { response } = await downloadAndVerify(asset);
              expect(response.headers.get('content-type')).toBe(asset.contentType);
              expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
            }
          });

          it('answers 204 for a track without releases, and for the update the app already runs', async () => {
            const runtimeVersion = freshRuntimeVersion();
            const track = { platform: 'android', runtimeVersion, channel: 'development' };
            const none = await fetchManifestLikeExpo(server.url, ns, track, trust);
            expect(none).toMatchObject({ kind: 'no-update', status: 204 });
            expect(none.headers.get('content-type')).toBeNull();
            expect(none.headers.get(`${ns}-protocol-version`)).toBe('1');

            const { id } = await publishRelease(server, {
              channel: 'development',
              platform: 'android',
              runtimeVersion,
              launch: bundle(),
            });
            // Published through this instance: served at once, no cache delay.
            const fresh = expectUpdate(await fetchManifestLikeExpo(server.url, ns, track, trust));
            expect(fresh.manifest.id).toBe(id);
            expect(await fetchManifestLikeExpo(server.url, ns, { ...track, currentUpdateId: id }, trust)).toMatchObject(
              {
                kind: 'no-update',
              },
            );
            expect(
              await fetchManifestLikeExpo(server.url, ns, { ...track, currentUpdateId: id.toUpperCase() }, trust),
            ).toMatchObject({ kind: 'no-update' });
            const older = expectUpdate(
              await fetchManifestLikeExpo(server.url, ns, { ...track, currentUpdateId: randomUUID() }, trust),
            );
            expect(older.manifest.id).toBe(id);
            // Same runtimeVersion on the other platform or channel is another track.
            expect(await fetchManifestLikeExpo(server.url, ns, { ...track, platform: 'ios' }, trust)).toMatchObject({
              kind: 'no-update',
            });
            expect(
              await fetchManifestLikeExpo(server.url, ns, { ...track, channel: 'production' }, trust),
            ).toMatchObject({ kind: 'no-update' });
          });

          it('leaves out <ns>Client without otaConfig and updatePolicy when it is null', async () => {
            const runtimeVersion = freshRuntimeVersion();
            await publishRelease(server, {
              channel: 'production',
              platform: 'android',
              runtimeVersion,
              launch: bundle(),
              payload: { otaConfig: null },
            });
            const { manifest } = expectUpdate(
              await fetchManifestLikeExpo(
                server.url,
                ns,
                { platform: 'android', runtimeVersion, channel: 'production' },
                trust,
              ),
            );
            expect(manifest.extra).toEqual({});
          });

          it('keeps the assets of older releases served after a newer release', async () => {
            const runtimeVersion = freshRuntimeVersion();
            const track = { platform: 'ios', runtimeVersion, channel: 'production' };
            await publishRelease(server, {
              channel: 'production',
              platform: 'ios',
              runtimeVersion,
              launch: bundle(),
              assets: [png()],
            });
            const first = expectUpdate(await fetchManifestLikeExpo(server.url, ns, track, trust)).manifest;
            await publishRelease(server, {
              channel: 'production',
              platform: 'ios',
              runtimeVersion,
              launch: bundle(),
              assets: [png()],
            });
            const second = expectUpdate(await fetchManifestLikeExpo(server.url, ns, track, trust)).manifest;
            expect(second.id).not.toBe(first.id);
            expect(Date.parse(second.createdAt)).toBeGreaterThan(Date.parse(first.createdAt));
            for (const asset of [first.launchAsset, ...first.assets]) await downloadAndVerify(asset);
          });
        });
      }
    });
  }
});
