import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeEachEngine } from '../support/engines.js';
import { clientHeaders } from '../support/expo-client.js';
import { sampleSum, scrape } from '../support/prometheus.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { rowCounts } from '../support/row-counts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * An instance that starts on a database with releases sends itself manifest requests over the
 * tracks it loaded once it listens and before it reports ready (ota/manifest/manifest-warm-up.ts),
 * so devices meet code V8 has optimised. What a device, an operator or the database can see must
 * not change. (test/startup-under-cpu-quota.test.ts shows /readyz waiting for it.)
 */
const METRICS_TOKEN = 'warm-up-metrics-token-0123456789';
const launch = () => fileOf(`console.log("${randomBytes(8).toString('hex')}")`, 'application/javascript', '.bundle');
const tracks = ['warm-1', 'warm-2', 'warm-3'].map((runtimeVersion) => ({
  platform: 'ios' as const,
  runtimeVersion,
  channel: 'production' as const,
}));

describeEachEngine('manifest warm-up at start-up', (engine) => {
  let first: TestServer;
  const heads: string[] = [];
  beforeAll(async () => {
    first = await startTestServer(engine);
    for (const track of tracks) heads.push((await publishRelease(first, { ...track, launch: launch() })).id);
  });
  afterAll(async () => {
    await first?.close();
  });

  const start = (env: Record<string, string>, logLevel?: string) =>
    // The same deployment restarted (same PUBLIC_URL), so the signatures it stored are current.
    startTestServer(engine, {
      database: first.database,
      env: { METRICS_TOKEN, PUBLIC_URL: first.url, ...env },
      logLevel,
    });

  it('runs over the loaded tracks once the instance listens, and leaves no count, report or answer of its own', async () => {
    const checksBefore = (await rowCounts(first.app.database.db, ['update_checks'])).update_checks;
    const restarted = await start({ MANIFEST_WARM_UP_REQUESTS: '30' });
    try {
      const messages = restarted.logs.entries().map((entry) => entry.msg);
      const warmed = restarted.logs.entries().find((entry) => entry.msg === 'manifest path warmed up');
      expect(warmed).toMatchObject({ sent: 30, answered: 30, stopped: false });
      expect(messages.indexOf('manifest path warmed up')).toBeGreaterThan(messages.indexOf('manifest cache loaded'));
      expect(messages.indexOf('manifest path warmed up')).toBeGreaterThan(
        messages.indexOf(`Server listening at ${restarted.url}`),
      );
      expect(restarted.app.startupWork.pending).toBe(false);
      expect((await fetch(`${restarted.url}/readyz`)).status).toBe(200);

      // Its answers were no device's: the manifest metrics start at zero.
      const before = await scrape(`${restarted.url}/metrics`, METRICS_TOKEN);
      expect(sampleSum(before, 'ferry_manifest_requests_total')).toBe(0);
      expect(sampleSum(before, 'ferry_manifest_duration_seconds_count')).toBe(0);

      // A device that runs the newest release of warm-1 and one that runs its embedded bundle.
      const embedded = randomUUID();
      const upToDate = await fetch(`${restarted.url}/api/updates/manifest`, {
        headers: {
          ...clientHeaders('expo', { ...tracks[0]!, currentUpdateId: heads[0] }),
          'eas-client-id': 'device-1',
        },
      });
      expect(upToDate.status).toBe(200);
      expect(await upToDate.text()).toContain('"type":"noUpdateAvailable"');
      const onEmbedded = await fetch(`${restarted.url}/api/updates/manifest`, {
        headers: clientHeaders('expo', { ...tracks[1]!, currentUpdateId: embedded, embeddedUpdateId: embedded }),
      });
      expect(onEmbedded.status).toBe(200);
      expect(await onEmbedded.text()).toContain(`"id":"${heads[1]}"`);

      const after = await scrape(`${restarted.url}/metrics`, METRICS_TOKEN);
      expect(sampleSum(after, 'ferry_manifest_requests_total')).toBe(2);
      expect(sampleSum(after, 'ferry_manifest_requests_total', { outcome: 'update' })).toBe(1);
      expect(sampleSum(after, 'ferry_manifest_duration_seconds_count')).toBe(2);
    } finally {
      // Closing writes the pending device reports.
      await restarted.close();
    }
    // The device that sent its client id was counted; the warm-up's requests, which ran every
    // track's newest release as well, were not.
    const checksAfter = (await rowCounts(first.app.database.db, ['update_checks'])).update_checks;
    expect(checksAfter - checksBefore).toBe(1);
  });

  it('sends 2,000 requests by default, and none when MANIFEST_WARM_UP_REQUESTS is 0', async () => {
    const byDefault = await start({});
    const off = await start({ MANIFEST_WARM_UP_REQUESTS: '0' });
    try {
      const warmed = byDefault.logs.entries().find((entry) => entry.msg === 'manifest path warmed up');
      expect(warmed).toMatchObject({ sent: 2000, answered: 2000, stopped: false });
      expect(off.logs.entries().find((entry) => entry.msg === 'manifest cache loaded')).toMatchObject({ tracks: 3 });
      expect(off.logs.text).not.toContain('manifest path warmed up');
    } finally {
      await byDefault.close();
      await off.close();
    }
  });

  it('that fails is logged, and the instance starts and serves anyway with its metrics at zero', async () => {
    // The warm-up's client connects with (port, '127.0.0.1'); nothing else in a start does.
    const connect = net.connect.bind(net) as (...args: unknown[]) => net.Socket;
    const refused = vi.spyOn(net, 'connect').mockImplementation(((...args: unknown[]) => {
      if (typeof args[0] === 'number' && args[1] === '127.0.0.1') throw new Error('connect refused by the test');
      return connect(...args);
    }) as typeof net.connect);
    let restarted: TestServer;
    let attempts: number;
    try {
      restarted = await start({ MANIFEST_WARM_UP_REQUESTS: '30' });
    } finally {
      attempts = refused.mock.calls.length;
      refused.mockRestore();
    }
    try {
      expect(attempts).toBeGreaterThan(0);
      const warning = restarted.logs
        .entries()
        .find((entry) => entry.msg === 'could not warm up the manifest path; the first requests run it cold');
      expect(warning).toMatchObject({ level: 40, err: { message: 'connect refused by the test' } });
      expect(restarted.logs.text).not.toContain('manifest path warmed up');
      const answer = await fetch(`${restarted.url}/api/updates/manifest`, {
        headers: clientHeaders('expo', tracks[2]!),
      });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain(`"id":"${heads[2]}"`);
      const metrics = await scrape(`${restarted.url}/metrics`, METRICS_TOKEN);
      expect(sampleSum(metrics, 'ferry_manifest_requests_total')).toBe(1);
    } finally {
      await restarted.close();
    }
  });

  it('is skipped when request lines are logged (debug), where every warm-up request would be a line', async () => {
    const debug = await start({ MANIFEST_WARM_UP_REQUESTS: '30' }, 'debug');
    try {
      expect(debug.logs.text).toContain('manifest cache loaded');
      expect(debug.logs.text).not.toContain('manifest path warmed up');
      expect(debug.logs.text).not.toContain('warm-1');
    } finally {
      await debug.close();
    }
  });

  it('does nothing on an instance with no releases', async () => {
    const empty = await startTestServer(engine, { env: { MANIFEST_WARM_UP_REQUESTS: '30' } });
    try {
      expect(empty.logs.entries().find((entry) => entry.msg === 'manifest cache loaded')).toMatchObject({ tracks: 0 });
      expect(empty.logs.text).not.toContain('manifest path warmed up');
    } finally {
      await empty.close();
    }
  });
});
