import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { KyselyReleaseStore } from '../../src/ota/kysely-release-store.js';
import { describeEachEngine } from '../support/engines.js';
import { clientHeaders } from '../support/expo-client.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 35, item 7: a track nobody asks for stays warm. The instance reloads tracks past their TTL
 * in the background every half TTL (ManifestService.startRefreshing), so a track idle for longer
 * than its TTL and stale-if-error limit together is still answered from memory: here the database
 * refuses every read when the device finally asks, and the device gets the release. Without the
 * refresh the entry would have been dropped at its limit, and the device would get 503.
 */
const TTL_SECONDS = 1;
const STALE_SECONDS = 4;
/** Reloads that each start at least a TTL after the one before: together past TTL + limit. */
const RELOADS = TTL_SECONDS + STALE_SECONDS + 1;

describeEachEngine('a track idle past its TTL and stale-if-error limit', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, {
      env: { MANIFEST_CACHE_TTL_SECONDS: String(TTL_SECONDS), MANIFEST_STALE_IF_ERROR_SECONDS: String(STALE_SECONDS) },
    });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.close();
  });

  it('is reloaded in the background and answered from memory, with no read on the device’s time', async () => {
    const track = { channel: 'production', platform: 'ios', runtimeVersion: `idle-${engine}` } as const;
    const launch = fileOf(`console.log("${randomBytes(8).toString('hex')}")`, 'application/javascript', '.bundle');
    const reads = vi.spyOn(KyselyReleaseStore.prototype, 'timeline');
    const { id } = await publishRelease(server, { ...track, launch });
    // No request for the track meanwhile: only the background refresh reads it.
    await expect.poll(() => reads.mock.calls.length).toBeGreaterThanOrEqual(RELOADS);

    reads.mockRejectedValue(new Error('the database refuses reads from now on'));
    const answer = await fetch(`${server.url}/api/updates/manifest`, { headers: clientHeaders('expo', track) });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(`"id":"${id}"`);
    reads.mockRestore();
  });
});
