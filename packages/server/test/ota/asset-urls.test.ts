import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startCachingCdn } from '../support/caching-cdn.js';
import { createTestDatabase, describeEachEngine, type EngineName, type TestDatabase } from '../support/engines.js';
import { downloadAndVerify, fetchManifestLikeExpo } from '../support/expo-client.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, TEST_SIGNING, type TestServer } from '../support/test-server.js';

/**
 * Issue 35, item 1: a release stores what identifies its assets, and every manifest builds their
 * URLs from the configuration of the instance that answers. Two instances share one database and
 * one object store, each with its own address (its own PUBLIC_URL): a release published through
 * one is served by the other with the other's URLs, after the first has stopped; a later
 * ASSET_PUBLIC_BASE_URL (a CDN) moves every existing release, signed again once.
 */

const trust = { certificatePem: TEST_SIGNING.certificatePem, keyId: 'main' };
const track = { channel: 'production', platform: 'android', runtimeVersion: '35.1.0(7)' } as const;

describeEachEngine('asset URLs follow the answering instance', (engine: EngineName) => {
  let database: TestDatabase;
  let dataDir: string;
  const servers: TestServer[] = [];

  beforeEach(async () => {
    database = await createTestDatabase(engine);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-asset-urls-'));
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** An instance on the shared database and object store (DATA_DIR holds the local objects). */
  const instance = async (env: Record<string, string> = {}) => {
    const server = await startTestServer(engine, { database, env: { DATA_DIR: dataDir, ...env } });
    servers.push(server);
    return server;
  };
  const stop = async (server: TestServer) => {
    servers.splice(servers.indexOf(server), 1);
    await server.close();
  };
  const signedBases = async (server: TestServer, releaseId: string) =>
    (
      await server.app.database.db
        .selectFrom('signed_manifests')
        .select('asset_base_url')
        .where('release_id', '=', releaseId)
        .execute()
    ).map((row) => row.asset_base_url);

  it('a release published through one instance is downloaded whole through another after the first stopped', async () => {
    const first = await instance();
    const second = await instance();
    const launch = fileOf(`export default "${engine}";\n`.repeat(200), 'application/javascript', '.bundle');
    const image = fileOf(Buffer.from('png'.repeat(300)), 'image/png', '.png');
    const { id } = await publishRelease(first, { ...track, launch, assets: [image] });
    await stop(first);

    const result = await fetchManifestLikeExpo(second.url, 'expo', track, trust);
    if (result.kind !== 'update') throw new Error(`expected the release, got ${result.kind}`);
    expect(result.manifest.id).toBe(id);
    const assets = [result.manifest.launchAsset, ...result.manifest.assets];
    for (const asset of assets) {
      expect(asset.url.startsWith(`${second.url}/objects/`), asset.url).toBe(true);
      await downloadAndVerify(asset);
    }
    // The spec's own client, in the other namespace, gets the same URLs.
    const ota = await fetchManifestLikeExpo(second.url, 'ota', track, trust);
    if (ota.kind !== 'update') throw new Error('expected the release');
    expect(ota.manifest.launchAsset.url).toBe(result.manifest.launchAsset.url);
  });

  it('a new asset base URL moves every release already published, signed again once, and the old base is forgotten', async () => {
    const first = await instance();
    const launch = fileOf(`export const cdn = "${engine}";\n`.repeat(200), 'application/javascript', '.bundle');
    const { id } = await publishRelease(first, { ...track, launch });
    expect(await signedBases(first, id)).toEqual([`${first.url}/objects`, `${first.url}/objects`]);
    await stop(first);

    // A CDN in front of the objects, configured after the release was published; then a restart.
    const cdn = await startCachingCdn();
    try {
      const moved = await instance({ ASSET_PUBLIC_BASE_URL: `${cdn.url}/objects` });
      cdn.setOrigin(moved.url);
      const result = await fetchManifestLikeExpo(moved.url, 'expo', track, trust);
      if (result.kind !== 'update') throw new Error('expected the release');
      expect(result.manifest.id).toBe(id);
      expect(result.manifest.launchAsset.url.startsWith(`${cdn.url}/objects/`)).toBe(true);
      await downloadAndVerify(result.manifest.launchAsset);
      // Signed again under the new base, and stored: another instance with it signs nothing.
      expect(await signedBases(moved, id)).toEqual([`${cdn.url}/objects`, `${cdn.url}/objects`]);
      const sameConfiguration = await instance({ ASSET_PUBLIC_BASE_URL: `${cdn.url}/objects` });
      const again = await fetchManifestLikeExpo(sameConfiguration.url, 'expo', track, trust);
      expect(again.kind === 'update' && again.manifest.launchAsset.url).toBe(result.manifest.launchAsset.url);
      const resigned = (server: TestServer) =>
        server.logs.entries().filter((entry) => String(entry.msg).startsWith('signed a stored release')).length;
      expect(resigned(moved)).toBe(1);
      expect(resigned(sameConfiguration)).toBe(0);
    } finally {
      await cdn.close();
    }
  });
});
