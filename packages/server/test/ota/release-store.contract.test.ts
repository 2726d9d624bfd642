import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { KyselyReleaseStore } from '../../src/ota/kysely-release-store.js';
import type { NewRelease } from '../../src/ota/release-store.js';
import { type Database, openMigratedDatabase } from '../../src/storage/database.js';
import { createTestDatabase, describeEachEngine, type TestDatabase } from '../support/engines.js';
import { hashOf } from '../support/releases.js';

const track = { app: 'default', channel: 'production', platform: 'android', runtimeVersion: '3.0.0(30)' } as const;
const newRelease = (createdAt: Date, fingerprint = 'fp'): NewRelease => ({
  id: randomUUID(),
  ...track,
  launchAsset: { url: 'https://cdn.test/b', hash: hashOf('b') },
  assets: [],
  otaConfig: null,
  updatePolicy: null,
  metadata: { fingerprint },
  createdAt,
  groupId: randomUUID(),
});

// The ReleaseStore contract, run against each adapter engine.
describeEachEngine('ReleaseStore contract', (engine) => {
  let testDb: TestDatabase;
  let database: Database;
  let store: KyselyReleaseStore;
  beforeAll(async () => {
    testDb = await createTestDatabase(engine);
    database = await openMigratedDatabase(testDb.target as Config['database']);
    store = new KyselyReleaseStore(database);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('newest is by createdAt, and ties are broken by insertion order', async () => {
    const at = new Date('2026-01-01T00:00:00.000Z');
    const first = newRelease(at, 'first');
    const second = newRelease(at, 'second');
    await store.withTrackLock(track, (locked) => locked.insert(first));
    await store.withTrackLock(track, (locked) => locked.insert(second));
    expect((await store.newest(track))?.id).toBe(second.id);
    const older = newRelease(new Date('2025-12-31T00:00:00.000Z'), 'older-but-later');
    await store.withTrackLock(track, (locked) => locked.insert(older));
    expect((await store.newest(track))?.id).toBe(second.id);
    expect((await store.list(track, 10)).map((r) => r.metadata.fingerprint)).toEqual([
      'second',
      'first',
      'older-but-later',
    ]);
  });

  it('a failure inside the track lock keeps nothing that was written', async () => {
    const before = await store.count();
    await expect(
      store.withTrackLock(track, async (locked) => {
        await locked.insert(newRelease(new Date()));
        await locked.audit({ type: 'release.created', actor: 'test', track, details: {} });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.count()).toBe(before);
    const audits = await database.db.selectFrom('audit_events').selectAll().where('actor', '=', 'test').execute();
    expect(audits).toHaveLength(0);
  });

  it('round-trips every field, with createdAt as ISO-8601 to the millisecond', async () => {
    const release = {
      ...newRelease(new Date('2026-02-03T04:05:06.789Z')),
      otaConfig: { name: 'app', nested: { list: [1, 'two'] } },
      updatePolicy: 2 as const,
      assets: [
        { url: 'https://cdn.test/a.png', hash: hashOf('a'), key: 'k', contentType: 'image/png', fileExtension: '.png' },
      ],
    };
    await store.withTrackLock(track, (locked) => locked.insert(release));
    const stored = await store.findById('default', release.id);
    expect(stored).toEqual({ ...release, createdAt: '2026-02-03T04:05:06.789Z' });
  });

  it('the newest signed release of the most recently published tracks, with their signatures', async () => {
    const trackOf = (runtimeVersion: string) => ({ ...track, runtimeVersion });
    const insert = async (runtimeVersion: string, at: string, signed: boolean) => {
      const release = { ...newRelease(new Date(at)), runtimeVersion };
      await store.withTrackLock(trackOf(runtimeVersion), async (locked) => {
        await locked.insert(release);
        if (signed) {
          await locked.saveSignatures(release.id, [
            {
              namespace: 'expo',
              certificate: 'c',
              body: `{"id":"${release.id}"}`,
              signature: 'sig="x"',
              assetBaseUrl: 'https://a.test',
            },
            {
              namespace: 'ota',
              certificate: 'c',
              body: `{"id":"${release.id}"}`,
              signature: 'sig="y"',
              assetBaseUrl: 'https://a.test',
            },
          ]);
        }
      });
      return release.id;
    };
    await insert('recent-a', '2030-01-01T00:00:00.000Z', true);
    const aNewest = await insert('recent-a', '2030-01-03T00:00:00.000Z', true);
    const bNewest = await insert('recent-b', '2030-01-04T00:00:00.000Z', false);
    await insert('recent-c', '2030-01-02T00:00:00.000Z', true);
    // Two releases of one track at the same instant: the later insert is the newest.
    await insert('recent-d', '2030-01-05T00:00:00.000Z', true);
    const dNewest = await insert('recent-d', '2030-01-05T00:00:00.000Z', true);

    const found = (await store.timelinesOfRecentTracks(3)).map(({ head }) => {
      if (head?.kind !== 'release') throw new Error('every track here has a release at its head');
      return head;
    });
    expect(found.map(({ release }) => [release.runtimeVersion, release.id])).toEqual([
      ['recent-d', dNewest],
      ['recent-b', bNewest],
      ['recent-a', aNewest],
    ]);
    expect(found[0]!.signatures.map((signed) => signed.namespace).sort()).toEqual(['expo', 'ota']);
    expect(found[0]!.signatures[0]!.body).toBe(`{"id":"${dNewest}"}`);
    expect(found[1]!.signatures).toEqual([]);
    expect(await store.timelinesOfRecentTracks(0)).toEqual([]);
  });
});
