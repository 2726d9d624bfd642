import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AuditExport } from '../../src/ota/audit-export.js';
import { KyselyReleaseStore } from '../../src/ota/kysely-release-store.js';
import { ReleaseListing } from '../../src/ota/release-listing.js';
import { type Database, openDatabase } from '../../src/storage/database.js';
import type { DatabaseSchema } from '../../src/storage/schema.js';
import { createTestDatabase, describeEachEngine, type EngineName, type TestDatabase } from '../support/engines.js';
import { migrateTestDatabase } from '../support/migrate-to.js';
import { hashOf } from '../support/releases.js';

/**
 * Migrations 022 (release groups) and 023 (audit paging indexes) on a database made by migrations
 * 001–021 holding releases and audit events: the rows read back unchanged, the old releases belong
 * to no group, a previous version (which knows no group) still inserts, a group holds one release
 * per platform, and the audit log pages newest first over the new indexes.
 */
const T0 = Date.parse('2026-11-01T00:00:00Z');

/** A release row as version 021 writes it: no group_id. */
const releaseRow = (platform: 'ios' | 'android', runtimeVersion: string, at: number) => ({
  id: randomUUID(),
  channel: 'production',
  platform,
  runtime_version: runtimeVersion,
  launch_asset: JSON.stringify({ url: 'https://cdn.test/b', hash: hashOf(`b-${runtimeVersion}`) }),
  assets: '[]',
  ota_config: null,
  update_policy: null,
  metadata: JSON.stringify({ fingerprint: 'fp', commit: 'c0ffee' }),
  created_at: at,
});

const auditRow = (type: string, at: number) => ({
  id: randomUUID(),
  type,
  actor: 'ci',
  channel: 'production',
  platform: 'ios',
  runtime_version: '1.0.0(1)',
  release_id: null,
  details: '{}',
  created_at: at,
});

describeEachEngine('migrations 022 and 023: release groups, audit paging', (engine: EngineName) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(engine);
  });
  afterEach(async () => database.drop());

  const migrate = (last?: string) => migrateTestDatabase(database, engine, last);
  const withDatabase = async <T>(work: (database: Database) => Promise<T>): Promise<T> => {
    const opened = openDatabase(database.target);
    try {
      return await work(opened);
    } finally {
      await opened.close();
    }
  };
  const indexes = async ({ db, engine }: Database): Promise<string[]> => {
    const rows =
      engine === 'postgres'
        ? await sql<{ name: string }>`
            select indexname as name from pg_indexes where tablename in ('releases', 'audit_events')`.execute(db)
        : await sql<{ name: string }>`
            select name from sqlite_master where type = 'index' and tbl_name in ('releases', 'audit_events')`.execute(
            db,
          );
    return rows.rows.map((row) => row.name);
  };
  // biome-ignore lint/suspicious/noExplicitAny: rows as the previous version's schema has them.
  const asBefore = (db: Kysely<DatabaseSchema>) => db as unknown as Kysely<any>;

  it('keeps every release and event, and adds groups and the paging indexes', async () => {
    await migrate('021_drop_enumeration_checks');
    const old = [releaseRow('ios', '1.0.0(1)', T0), releaseRow('android', '1.0.0(2)', T0 + 1)];
    await withDatabase(async ({ db }) => {
      await asBefore(db).insertInto('releases').values(old).execute();
      await asBefore(db)
        .insertInto('audit_events')
        .values([
          auditRow('release.created', T0),
          auditRow('release.created', T0 + 1),
          auditRow('guard.bypassed', T0 + 2),
        ])
        .execute();
    });

    await migrate();

    await withDatabase(async (opened) => {
      const { db } = opened;
      expect(await indexes(opened)).toEqual(
        expect.arrayContaining([
          'releases_group_platform',
          'audit_events_newest',
          'audit_events_actor_newest',
          'audit_events_type_newest',
          'audit_events_track_newest',
        ]),
      );
      const store = new KyselyReleaseStore(opened);
      for (const row of old) {
        expect(await store.findById('default', row.id)).toMatchObject({
          id: row.id,
          platform: row.platform,
          runtimeVersion: row.runtime_version,
          metadata: { fingerprint: 'fp', commit: 'c0ffee' },
          groupId: null,
        });
      }
      const listed = await new ReleaseListing(opened).list('default', { limit: 10 });
      expect(listed.releases.map((release) => [release.id, release.groupId])).toEqual([
        [old[1]!.id, null],
        [old[0]!.id, null],
      ]);

      // A previous version, running on this schema during a rolling upgrade, inserts without a group.
      await asBefore(db)
        .insertInto('releases')
        .values(releaseRow('ios', '1.0.0(1)', T0 + 2))
        .execute();
      // A group holds one release per platform; releases without a group are not constrained.
      const groupId = randomUUID();
      await db
        .insertInto('releases')
        .values([
          { ...releaseRow('ios', '1.1.0(3)', T0 + 3), group_id: groupId },
          { ...releaseRow('android', '1.1.0(4)', T0 + 3), group_id: groupId },
        ])
        .execute();
      await expect(
        db
          .insertInto('releases')
          .values({ ...releaseRow('ios', '1.1.0(5)', T0 + 4), group_id: groupId })
          .execute(),
      ).rejects.toThrow(/unique|duplicate/i);
      expect((await store.group('default', groupId)).map((release) => release.platform)).toEqual(['ios', 'android']);

      // The events read back newest first over the new indexes.
      const page = await new AuditExport(opened).page('default', { order: 'newest', limit: 2 });
      expect(page.events.map((event) => event.type)).toEqual(['guard.bypassed', 'release.created']);
      const rest = await new AuditExport(opened).page('default', {
        order: 'newest',
        limit: 2,
        cursor: page.nextCursor!,
      });
      expect(rest).toMatchObject({ events: [{ type: 'release.created' }], nextCursor: null });
    });
  });
});
