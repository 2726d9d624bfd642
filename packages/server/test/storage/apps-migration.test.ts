import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { credentialHash, newOperatorToken } from '../../src/auth/operator-credential.js';
import { openDatabase } from '../../src/storage/database.js';
import { createTestDatabase, describeEachEngine, type EngineName, type TestDatabase } from '../support/engines.js';
import { clientHeaders } from '../support/expo-client.js';
import { migrateTestDatabase } from '../support/migrate-to.js';
import { hashOf } from '../support/releases.js';
import { startTestServer } from '../support/test-server.js';

/**
 * Migration 024 (apps) on a database made by migrations 001–023 holding what a single-app server
 * holds: everything becomes the default app's, and the server on it answers its devices, its
 * release token and its operators as before. Viewer and releaser tokens become the default app's,
 * admin tokens stay server-wide, and console sessions end.
 */
const T0 = Date.parse('2026-11-01T00:00:00Z');
const TRACK = { channel: 'production', platform: 'ios', runtimeVersion: '7.0.0(1)' } as const;

describeEachEngine('migration 024: apps, from a single-app database', (engine: EngineName) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(engine);
  });
  afterEach(async () => database.drop());

  it('makes everything the default app’s and keeps every device, token and URL working', async () => {
    await migrateTestDatabase(database, engine, '023_audit_paging');
    const releaseId = randomUUID();
    const viewer = newOperatorToken();
    const admin = newOperatorToken();
    const opened = openDatabase(database.target);
    try {
      // biome-ignore lint/suspicious/noExplicitAny: rows as version 023 writes them, before the schema knows app_id.
      const db = opened.db as any;
      await db
        .insertInto('releases')
        .values({
          id: releaseId,
          channel: TRACK.channel,
          platform: TRACK.platform,
          runtime_version: TRACK.runtimeVersion,
          launch_asset: JSON.stringify({
            url: 'https://cdn.test/b',
            hash: hashOf('b'),
            key: 'b',
            contentType: 'application/javascript',
            fileExtension: '.bundle',
          }),
          assets: '[]',
          ota_config: null,
          update_policy: null,
          metadata: JSON.stringify({ fingerprint: 'fp', message: 'before apps' }),
          created_at: T0,
          group_id: randomUUID(),
        })
        .execute();
      await db
        .insertInto('audit_events')
        .values({
          id: randomUUID(),
          type: 'release.created',
          actor: 'ci',
          channel: TRACK.channel,
          platform: TRACK.platform,
          runtime_version: TRACK.runtimeVersion,
          release_id: releaseId,
          details: '{}',
          created_at: T0,
        })
        .execute();
      for (const [name, role, token] of [
        ['vera', 'viewer', viewer],
        ['ada', 'admin', admin],
      ] as const) {
        await db
          .insertInto('operator_tokens')
          .values({
            id: randomUUID(),
            name,
            role,
            token_hash: credentialHash(token),
            created_at: T0,
            created_by: 'test',
            revoked_at: null,
            last_used_at: null,
          })
          .execute();
      }
      await db
        .insertInto('operator_sessions')
        .values({
          id_hash: credentialHash('old-session'),
          kind: 'oidc',
          token_id: null,
          subject: 's',
          name: 'n',
          role: 'admin',
          created_at: T0,
          expires_at: Date.now() + 3_600_000,
        })
        .execute();
    } finally {
      await opened.close();
    }

    // The server on it applies 024 and serves as before.
    const server = await startTestServer(engine, { database });
    try {
      const rows = await server.app.database.db.selectFrom('apps').select(['slug', 'signing_key']).execute();
      expect(rows).toEqual([{ slug: 'default', signing_key: null }]);
      const owners = await server.app.database.db.selectFrom('releases').select('app_id').execute();
      expect(owners).toEqual([{ app_id: 'default' }]);
      const tokens = await server.app.database.db
        .selectFrom('operator_tokens')
        .select(['name', 'app_id'])
        .orderBy('name')
        .execute();
      expect(tokens).toEqual([
        { name: 'ada', app_id: null },
        { name: 'vera', app_id: 'default' },
      ]);
      expect(await server.app.database.db.selectFrom('operator_sessions').selectAll().execute()).toEqual([]);

      // Devices on the old URL get the old release, signed with the configured key.
      const manifest = await fetch(`${server.url}/api/updates/manifest`, { headers: clientHeaders('expo', TRACK) });
      expect(manifest.status).toBe(200);
      expect(await manifest.text()).toContain(releaseId);
      // The old release token lists it; the old viewer sees it in the console; the old admin manages apps.
      const listed = await server.authed('/api/updates/releases');
      expect(((await listed.json()) as { releases: Array<{ id: string }> }).releases.map((r) => r.id)).toEqual([
        releaseId,
      ]);
      const tracks = await fetch(`${server.url}/api/console/tracks`, {
        headers: { authorization: `Bearer ${viewer}` },
      });
      expect(((await tracks.json()) as { tracks: Array<{ activeReleaseId: string }> }).tracks[0]?.activeReleaseId).toBe(
        releaseId,
      );
      const audit = await fetch(`${server.url}/api/audit-events?order=newest`, {
        headers: { authorization: `Bearer ${viewer}` },
      });
      expect(JSON.stringify(await audit.json())).toContain(releaseId);
      const apps = await fetch(`${server.url}/api/apps`, { headers: { authorization: `Bearer ${admin}` } });
      expect(((await apps.json()) as { apps: Array<{ slug: string }> }).apps.map((app) => app.slug)).toEqual([
        'default',
      ]);
      expect((await fetch(`${server.url}/api/apps`, { headers: { authorization: `Bearer ${viewer}` } })).status).toBe(
        403,
      );
    } finally {
      await server.close();
    }
  });
});
