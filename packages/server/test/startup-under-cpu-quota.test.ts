import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCpuQuota } from './support/cpu-quota.js';
import { createTestDatabase, type TestDatabase } from './support/engines.js';
import { clientHeaders } from './support/expo-client.js';
import { fileOf, publishRelease } from './support/publisher.js';
import { spawnServer } from './support/spawn-server.js';
import { startTestServer, TEST_RELEASE_TOKEN, TEST_SIGNING } from './support/test-server.js';

/**
 * An instance must start however little CPU it gets: a pod with a CPU limit, or one an autoscaler
 * just placed on a busy node. Its start-up work (loading the manifest cache, warming up the manifest
 * path) runs once it listens, and /readyz waits for it (routes/readiness.ts); before, it ran in a
 * Fastify hook killed after 10 s, and the instance exited. Here the real entry point runs in a
 * cgroup limited to a tenth of a core, with the warm-up at its documented maximum, over a database
 * with a track to load and warm up. SQLite only: what is measured is the start, not the engine.
 */
const QUOTA_PERCENT = 10;
const quota = createCpuQuota(QUOTA_PERCENT);
const unavailable = 'unavailable' in quota ? quota.unavailable : undefined;
if (unavailable && process.env.CI === 'true') throw new Error(`CI needs a CPU quota for this test: ${unavailable}`);
if (unavailable) console.warn(`skipping the start-up under a CPU quota: ${unavailable}`);

const track = { platform: 'ios' as const, runtimeVersion: 'quota-1', channel: 'production' as const };

(unavailable ? describe.skip : describe)(`start-up on ${QUOTA_PERCENT} % of a core`, () => {
  let database: TestDatabase;
  let publicUrl: string;
  let releaseId: string;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    const publisher = await startTestServer('sqlite', { database, env: { DATA_DIR: path.dirname(database.location) } });
    // The limited instance is the same deployment restarted: the same public URL and key, so the
    // signatures stored at publish are current for it, and it loads and warms the track up.
    publicUrl = publisher.url;
    try {
      const launch = fileOf(`console.log("${randomBytes(8).toString('hex')}")`, 'application/javascript', '.bundle');
      releaseId = (await publishRelease(publisher, { ...track, launch })).id;
    } finally {
      await publisher.close();
    }
  });
  afterAll(async () => {
    if (!('unavailable' in quota)) quota.remove();
    await database?.drop();
  });

  it('becomes ready with the warm-up at its maximum, and serves the release', async () => {
    if ('unavailable' in quota) return;
    const server = spawnServer(
      {
        DATA_DIR: path.dirname(database.location),
        PUBLIC_URL: publicUrl,
        OTA_RELEASE_TOKEN: TEST_RELEASE_TOKEN,
        OTA_SIGNING_KEY: TEST_SIGNING.privateKeyPem,
        OTA_SIGNING_CERT: TEST_SIGNING.certificatePem,
        MANIFEST_WARM_UP_REQUESTS: '100000',
      },
      { wrapper: quota.wrapper },
    );
    let exitCode: number | null;
    try {
      const url = await server.ready();
      // The log lines travel on stdout, /readyz on a socket: ready may be heard before they are read.
      await server.waitForOutput(/"tracks":1,[^\n]*"msg":"manifest cache loaded"/);
      await server.waitForOutput(/"msg":"manifest path warmed up"/);
      expect(server.child.exitCode).toBeNull();
      expect(server.output()).not.toMatch(/timed out|did not start in time/);
      // The limit did bite: the process was held back by the quota.
      expect(quota.throttledPeriods()).toBeGreaterThan(0);

      const ready = await fetch(`${url}/readyz`);
      expect(await ready.json()).toMatchObject({ status: 'ready' });
      const manifest = await fetch(`${url}/api/updates/manifest`, { headers: clientHeaders('expo', track) });
      expect(manifest.status).toBe(200);
      expect(await manifest.text()).toContain(`"id":"${releaseId}"`);
    } finally {
      exitCode = await server.stop();
    }
    expect(exitCode).toBe(0);
  });
});
