import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { createTestDatabase, describeEachEngine, type EngineName, type TestDatabase } from '../support/engines.js';
import { fetchManifestLikeExpo } from '../support/expo-client.js';
import { migrateTestDatabase } from '../support/migrate-to.js';
import { fileOf, hashOfBytes, uploadAssets } from '../support/publisher.js';
import { startTestServer, TEST_SIGNING } from '../support/test-server.js';

/**
 * Migration 019 on a database made by the migrations before it, holding a release as it was
 * stored then: with the URL each asset was uploaded to, on an instance that is gone, and its
 * signed manifests. After the upgrade it is served with the answering instance's URLs, signed
 * again once, and what a manifest took from the old URL (the extension) is unchanged.
 */

describeEachEngine(
  'migration 019: releases stored with URLs are served with the current ones',
  (engine: EngineName) => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(engine);
    });
    afterEach(async () => database.drop());

    const migrate = (last?: string) => migrateTestDatabase(database, engine, last);

    it("a release stored with another instance's URLs is served with the current URLs and the same extension", async () => {
      await migrate('018_asset_deletions');
      const track = { channel: 'production', platform: 'ios', runtimeVersion: '19.0.0(1)' } as const;
      const bundle = fileOf('export default 19;\n'.repeat(100), 'application/javascript', '.bundle');
      const image = fileOf(Buffer.from('png'.repeat(100)), 'image/png', '.png');
      const id = randomUUID();
      // As an instance that has since gone stored it: its own address, an extension only in the URL.
      const opened = openDatabase(database.target);
      try {
        await opened.db
          .insertInto('releases')
          .values({
            id,
            channel: track.channel,
            platform: track.platform,
            runtime_version: track.runtimeVersion,
            launch_asset: JSON.stringify({ url: 'http://gone.test:3000/objects/b', hash: hashOfBytes(bundle.body) }),
            assets: JSON.stringify([{ url: 'http://gone.test:3000/objects/logo.png', hash: hashOfBytes(image.body) }]),
            ota_config: JSON.stringify({ name: 'App', slug: 'app' }),
            update_policy: null,
            metadata: JSON.stringify({ fingerprint: 'fp' }),
            created_at: Date.parse('2026-11-01T00:00:00Z'),
          })
          .execute();
      } finally {
        await opened.close();
      }

      await migrate();
      const migrated = openDatabase(database.target);
      try {
        // Expand only: the old URLs stay for servers older than this one during a rolling upgrade.
        const row = await migrated.db
          .selectFrom('releases')
          .select('assets')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(JSON.stringify(row.assets)).toContain('gone.test');
      } finally {
        await migrated.close();
      }

      // Served by an instance at another address, with its URLs, and the same file extension as before.
      const server = await startTestServer(engine, { database });
      try {
        await uploadAssets(server, { channel: track.channel, runtimeVersion: track.runtimeVersion }, [bundle, image]);
        const result = await fetchManifestLikeExpo(server.url, 'expo', track, {
          certificatePem: TEST_SIGNING.certificatePem,
          keyId: 'main',
        });
        if (result.kind !== 'update') throw new Error('expected the release');
        expect(result.manifest.id).toBe(id);
        expect(result.manifest.launchAsset.url.startsWith(`${server.url}/objects/`)).toBe(true);
        expect(result.manifest.assets[0]).toMatchObject({ fileExtension: '.png' });
        expect(result.manifest.assets[0]?.url.startsWith(`${server.url}/objects/`)).toBe(true);
      } finally {
        await server.close();
      }
    });
  },
);
