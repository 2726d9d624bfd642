import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NO_RELEASE_SERIES } from '../../src/metrics/runtime-version-label.js';
import { describeEachEngine } from '../support/engines.js';
import { type Exposition, sampleSum, scrape } from '../support/prometheus.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * "My update never arrives": a device asking for a track with no release gets 204 like an
 * up-to-date one. The instance counts those answers per runtime version and logs them at debug, so
 * an operator can see which runtime version the app asks for (and that nothing was published there).
 */
const METRICS_TOKEN = `test-metrics-token-${randomBytes(8).toString('hex')}`;
const PUBLISHED = '3.0.0(30)';
const NEVER_PUBLISHED = '3.0.0(31)';

const ask = (server: TestServer, runtimeVersion: string, extra: Record<string, string> = {}) =>
  fetch(`${server.url}/api/updates/manifest`, {
    headers: {
      accept: 'multipart/mixed',
      'expo-protocol-version': '1',
      'expo-platform': 'ios',
      'expo-runtime-version': runtimeVersion,
      'expo-channel-name': 'production',
      ...extra,
    },
  });

const noRelease = (exposition: Exposition, labels: Record<string, string> = {}) =>
  sampleSum(exposition, 'ferry_manifest_no_release_total', labels);

async function publishOn(server: TestServer, runtimeVersion: string, payload = {}) {
  return publishRelease(server, {
    channel: 'production',
    platform: 'ios',
    runtimeVersion,
    launch: fileOf(`console.log(${JSON.stringify(runtimeVersion)})`, 'application/javascript', '.bundle'),
    payload,
  });
}

describeEachEngine('a manifest request for a track with no release', (engine) => {
  describe('at the default log level (the fast path answers)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(engine, { env: { METRICS_TOKEN } });
      await publishOn(server, PUBLISHED);
    });
    afterAll(async () => server?.close());
    const read = () => scrape(`${server.url}/metrics`, METRICS_TOKEN);

    it('is counted per runtime version, platform and channel; answers with a release are not', async () => {
      for (let i = 0; i < 3; i++) {
        const response = await ask(server, NEVER_PUBLISHED);
        expect(response.status).toBe(204);
        await response.arrayBuffer();
      }
      const served = await ask(server, PUBLISHED);
      expect(served.status).toBe(200);
      await served.arrayBuffer();
      const exposition = await read();
      expect(noRelease(exposition, { runtime_version: NEVER_PUBLISHED, platform: 'ios', channel: 'production' })).toBe(
        3,
      );
      expect(noRelease(exposition, { runtime_version: PUBLISHED })).toBe(0);
      expect(noRelease(exposition)).toBe(3);
      expect(exposition.families.get('ferry_manifest_no_release_total')?.type).toBe('COUNTER');
    });

    it('a device outside the only release of a rollout is not "no release"', async () => {
      const staged = '3.0.0(40)';
      await publishOn(server, staged, { rollout: { percent: 1 } });
      const before = noRelease(await read());
      // Without EAS-Client-ID a device is outside every rollout; this track has no fallback.
      const response = await ask(server, staged);
      expect(response.status).toBe(204);
      await response.arrayBuffer();
      expect(noRelease(await read()) - before).toBe(0);
    });

    it('keeps the number of series bounded, whatever runtime versions clients send', async () => {
      const distinct = MAX_NO_RELEASE_SERIES + 20;
      for (let i = 0; i < distinct; i++) await (await ask(server, `9.9.${i}`)).arrayBuffer();
      // Values that are not shaped like a runtime version never get a series of their own.
      await (await ask(server, 'not a runtime version')).arrayBuffer();
      const exposition = await read();
      const series = exposition.samples.get('ferry_manifest_no_release_total') ?? [];
      const own = series.filter((sample) => sample.labels.runtime_version !== 'other');
      expect(own).toHaveLength(MAX_NO_RELEASE_SERIES);
      expect(series.length).toBeLessThanOrEqual(MAX_NO_RELEASE_SERIES + 9);
      expect(noRelease(exposition, { runtime_version: 'not a runtime version' })).toBe(0);
      // Nothing is lost: every answer is counted, under its own value or under other.
      expect(noRelease(exposition)).toBe(3 + distinct + 1);
    });
  });

  describe('at debug level (the route answers)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(engine, { env: { METRICS_TOKEN }, logLevel: 'debug' });
      await publishOn(server, PUBLISHED);
    });
    afterAll(async () => server?.close());

    it('is logged with the track the device asked for, and counted', async () => {
      const response = await ask(server, NEVER_PUBLISHED);
      expect(response.status).toBe(204);
      await response.arrayBuffer();
      await (await ask(server, PUBLISHED)).arrayBuffer();
      const lines = server.logs.entries().filter((entry) => String(entry.msg).startsWith('manifest: no release'));
      expect(lines).toEqual([
        expect.objectContaining({
          level: 20,
          channel: 'production',
          platform: 'ios',
          runtimeVersion: NEVER_PUBLISHED,
        }),
      ]);
      const exposition = await scrape(`${server.url}/metrics`, METRICS_TOKEN);
      expect(noRelease(exposition, { runtime_version: NEVER_PUBLISHED })).toBe(1);
    });
  });
});
