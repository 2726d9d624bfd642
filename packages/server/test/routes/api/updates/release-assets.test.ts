import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectKeyToUrlPath, updateAssetKey } from '../../../../src/storage/objects/object-key.js';
import { describeEachEngine } from '../../../support/engines.js';
import { fileOf, hashOfBytes, uploadAssets } from '../../../support/publisher.js';
import { hashOf, PLACEHOLDER_ASSET_ORIGIN, releasePayload, storeAssets } from '../../../support/releases.js';
import { rowCounts } from '../../../support/row-counts.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

let sequence = 0;
const freshTrack = () => ({ runtimeVersion: `9.${process.pid}.${sequence++}` });

describeEachEngine('a release lists only stored assets', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => server?.close());

  const post = (payload: unknown) =>
    server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
  const counts = () => rowCounts(server.app.database.db, ['releases', 'audit_events']);

  it('refuses a release naming an asset that was never uploaded with 422 ASSET_MISSING, storing nothing', async () => {
    const payload = releasePayload(freshTrack());
    // The launch asset is uploaded; the image is not.
    await uploadAssets(server, { channel: 'production', runtimeVersion: payload.runtimeVersion }, [
      fileOf('bundle', 'application/javascript', '.bundle'),
    ]);
    const before = await counts();
    const response = await post(payload);
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error.code).toBe('ASSET_MISSING');
    expect(body.error.details.missing).toEqual([
      {
        key: updateAssetKey('default', 'production', payload.runtimeVersion, hashOf('logo')),
        hash: hashOf('logo'),
        url: `${server.url}/objects/${objectKeyToUrlPath(updateAssetKey('default', 'production', payload.runtimeVersion, hashOf('logo')))}`,
      },
    ]);
    expect(await counts()).toEqual(before);
  });

  it('names every missing asset, the launch asset included', async () => {
    const payload = releasePayload({
      ...freshTrack(),
      launchAsset: { url: `${PLACEHOLDER_ASSET_ORIGIN}/b`, hash: hashOf('never') },
    });
    const response = await post(payload);
    expect(response.status).toBe(422);
    const { missing } = (await response.json()).error.details;
    expect(missing.map((entry: { hash: string }) => entry.hash).sort()).toEqual(
      [hashOf('never'), hashOf('logo')].sort(),
    );
  });

  it('an asset stored for another runtimeVersion does not count', async () => {
    const stored = releasePayload(freshTrack());
    await storeAssets(server, stored);
    const response = await post({ ...stored, ...freshTrack() });
    expect(response.status).toBe(422);
  });

  it('refuses assets listed at a URL Ferry does not serve them at (another host, another asset) with 422 ASSET_URL_MISMATCH, storing nothing', async () => {
    const payload = releasePayload(freshTrack());
    await storeAssets(server, payload);
    const servedUrl = (hash: string) =>
      `${server.url}/objects/${objectKeyToUrlPath(updateAssetKey('default', 'production', payload.runtimeVersion, hash))}`;
    const before = await counts();
    for (const url of [
      // A host that holds nothing of this release.
      'https://elsewhere.example.test/bundle.hbc',
      // Ferry's own URL, but of the other asset: devices would get bytes of another hash.
      servedUrl(hashOf('logo')),
      // The right object key under another path of this server.
      `${server.url}/${objectKeyToUrlPath(updateAssetKey('default', 'production', payload.runtimeVersion, hashOf('bundle')))}`,
    ]) {
      const response = await post({ ...payload, launchAsset: { ...payload.launchAsset, url } });
      expect(response.status, url).toBe(422);
      const { error } = await response.json();
      expect(error.code).toBe('ASSET_URL_MISMATCH');
      expect(error.details.mismatched).toEqual([
        expect.objectContaining({ hash: hashOf('bundle'), url, expected: servedUrl(hashOf('bundle')) }),
      ]);
    }
    expect(await counts()).toEqual(before);
    // The same URL written another way (the host's case) is the same URL.
    const shouted = servedUrl(hashOf('bundle')).replace('127.0.0.1', '127.0.0.1').replace('http://', 'HTTP://');
    expect((await post({ ...payload, launchAsset: { ...payload.launchAsset, url: shouted } })).status).toBe(201);
  });

  it('accepts the release once its assets are uploaded', async () => {
    const payload = releasePayload(freshTrack());
    await storeAssets(server, payload);
    expect((await post(payload)).status).toBe(201);
  });
});

describe('with ASSET_PUBLIC_BASE_URL (a CDN in front of the store)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { ASSET_PUBLIC_BASE_URL: 'https://cdn.example.test/ota' } });
  });
  afterAll(async () => server?.close());

  it('requires asset URLs under the base, and the objects to exist', async () => {
    const { runtimeVersion } = freshTrack();
    const launch = fileOf('launch', 'application/javascript', '.bundle');
    const [status] = await uploadAssets(server, { channel: 'production', runtimeVersion }, [launch]);
    expect(status!.url.startsWith('https://cdn.example.test/ota/')).toBe(true);
    const release = (url: string) => ({
      channel: 'production',
      platform: 'android',
      runtimeVersion,
      launchAsset: { url, hash: hashOfBytes(launch.body) },
    });
    const elsewhere = await server.authed('/api/updates/release', {
      method: 'POST',
      body: JSON.stringify(release('https://other.example.test/launch')),
    });
    expect(elsewhere.status).toBe(422);
    expect((await elsewhere.json()).error.code).toBe('ASSET_URL_MISMATCH');
    const underBase = await server.authed('/api/updates/release', {
      method: 'POST',
      body: JSON.stringify(release(status!.url)),
    });
    expect(underBase.status).toBe(201);
  });
});
