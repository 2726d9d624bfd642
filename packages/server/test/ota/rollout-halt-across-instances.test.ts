import { randomBytes, randomUUID } from 'node:crypto';
import type { RolloutView } from '@ferry/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rolloutBucket } from '../../src/ota/rollout/rollout-bucket.js';
import { createTestDatabase, describeEachEngine, type TestDatabase } from '../support/engines.js';
import { checkManifestLikeExpo, clientHeaders } from '../support/expo-client.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, TEST_SIGNING, type TestServer } from '../support/test-server.js';

/**
 * The self-halting rollout in a scaled-out deployment: two instances share one PostgreSQL
 * database, devices report to either, and the rule fires on the fleet's counts; the halt then
 * reaches both instances' manifests at once (LISTEN/NOTIFY, the cache TTL being an hour).
 */
const trust = { certificatePem: TEST_SIGNING.certificatePem, keyId: 'main' };
const track = { platform: 'android', runtimeVersion: 'halt-1', channel: 'production' } as const;
const until = async (condition: () => Promise<boolean>) => {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
};

describeEachEngine('self-halting rollout across instances', (engine) => {
  // PostgreSQL: an hour's cache TTL, so only a notification explains B following A. SQLite has
  // no notifications (one instance per file in production); there the 1 s TTL is the bound.
  const ttl = engine === 'postgres' ? '3600' : '1';
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    a = await startTestServer(engine, { database, env: { MANIFEST_CACHE_TTL_SECONDS: ttl } });
    b = await startTestServer(engine, { database, env: { MANIFEST_CACHE_TTL_SECONDS: ttl } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  const served = async (server: TestServer, extra: Record<string, string>) => {
    const response = await fetch(`${server.url}/api/updates/manifest`, {
      headers: { ...clientHeaders('expo', track), ...extra },
    });
    const result = await checkManifestLikeExpo(
      'expo',
      { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) },
      trust,
    );
    return result.kind === 'update' ? result.manifest.id : result.kind;
  };

  it('failure reports from many devices on both instances halt the rollout everywhere; duplicates count once', async () => {
    const launch = () =>
      fileOf(`console.log("${randomBytes(8).toString('hex')}")`, 'application/javascript', '.bundle');
    const { id: stable } = await publishRelease(a, { ...track, launch: launch() });
    const { id: staged } = await publishRelease(a, {
      ...track,
      launch: launch(),
      payload: { rollout: { percent: 50, haltRule: { failureRate: 0.1, minDevices: 40 } } },
    });
    const inside: string[] = [];
    while (inside.length < 40) {
      const id = randomUUID();
      if (rolloutBucket(id, staged) < 50) inside.push(id);
    }
    // Both instances serve the rollout to the devices inside (B learned of it through NOTIFY).
    await until(async () => (await served(b, { 'eas-client-id': inside[0]! })) === staged);
    expect(await served(a, { 'eas-client-id': inside[0]! })).toBe(staged);

    // 36 devices run it, half reporting through each instance, each one twice.
    for (const [n, id] of inside.slice(0, 36).entries()) {
      for (const server of n % 2 ? [a, a] : [b, b])
        await served(server, { 'eas-client-id': id, 'expo-current-update-id': staged });
    }
    // 4 devices failed with it: each reports on both instances, and again (one device, one failure).
    for (const id of inside.slice(36)) {
      for (const server of [a, b, a, b]) {
        await served(server, {
          'eas-client-id': id,
          'expo-current-update-id': stable,
          'expo-recent-failed-update-ids': `"${staged}"`,
        });
      }
    }
    // 4 of 40 = 10 %: halted once both instances have written their reports.
    const view = async (server: TestServer) =>
      ((await (await server.authed(`/api/updates/rollouts/${staged}`)).json()) as { rollout: RolloutView }).rollout;
    await until(async () => (await view(b)).state === 'halted');
    expect(await view(a)).toMatchObject({ state: 'halted', health: { received: 40, failed: 4, failureRate: 0.1 } });
    // Both instances stop serving it, to every device.
    await until(async () => (await served(b, { 'eas-client-id': inside[0]! })) === stable);
    await until(async () => (await served(a, { 'eas-client-id': inside[1]! })) === stable);
    const halts = await a.app.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('release_id', '=', staged)
      .where('type', '=', 'rollout.halted')
      .execute();
    expect(halts).toHaveLength(1);
    expect(halts[0]!.actor).toBe('ferry');
  });
});
