import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rolloutBucket } from '../../src/ota/rollout/rollout-bucket.js';
import { describeEachEngine } from '../support/engines.js';
import { clientHeaders } from '../support/expo-client.js';
import { type Exposition, sampleSum, scrape } from '../support/prometheus.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The OTA counters of /metrics move as a team publishes, stages, rolls back and devices check. */
const TOKEN = 'metrics-token-0123456789abcdef';
const launch = () => fileOf(`console.log("${randomBytes(8).toString('hex')}")`, 'application/javascript', '.bundle');

describeEachEngine('release control metrics', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await server?.close();
  });
  const metrics = () => scrape(`${server.url}/metrics`, TOKEN);
  const moved = (before: Exposition, after: Exposition, name: string, labels: Record<string, string> = {}) =>
    sampleSum(after, name, labels) - sampleSum(before, name, labels);

  it('counts manifest outcomes, publishes, guard verdicts, rollout changes, directives and failure reports', async () => {
    const before = await metrics();
    const track = { channel: 'production', platform: 'android', runtimeVersion: 'metrics-1' } as const;
    const manifest = (extra: Record<string, string>) =>
      fetch(`${server.url}/api/updates/manifest`, { headers: { ...clientHeaders('expo', track), ...extra } });

    const { id: stable } = await publishRelease(server, {
      ...track,
      launch: launch(),
      payload: { fingerprint: 'fp-1' },
    });
    const blocked = await publishRelease(server, {
      ...track,
      launch: launch(),
      payload: { fingerprint: 'fp-2' },
    }).catch((error: Error) => error);
    expect(String(blocked)).toContain('409');
    await publishRelease(server, {
      ...track,
      launch: launch(),
      payload: { fingerprint: 'fp-2', allowNativeChange: true },
    });
    const { id: staged } = await publishRelease(server, {
      ...track,
      launch: launch(),
      payload: { fingerprint: 'fp-2', rollout: { percent: 50 } },
    });
    let outside = randomUUID();
    while (rolloutBucket(outside, staged) < 50) outside = randomUUID();

    expect((await manifest({})).status).toBe(200); // no client id: the fallback
    expect((await manifest({ 'eas-client-id': outside })).status).toBe(200); // outside: the fallback
    expect((await manifest({ 'expo-current-update-id': staged, 'eas-client-id': outside })).status).toBe(200);
    expect((await manifest({ 'expo-platform': 'windows' })).status).toBe(400);
    await manifest({ 'eas-client-id': outside, 'expo-recent-failed-update-ids': `"${stable}"` }); // the fallback again
    const percent = await server.authed(`/api/updates/rollouts/${staged}`, {
      method: 'POST',
      body: JSON.stringify({ action: 'percent', percent: 60 }),
    });
    expect(percent.status).toBe(200);
    const directive = await server.authed('/api/updates/directives', {
      method: 'POST',
      body: JSON.stringify({ ...track, type: 'rollBackToEmbedded' }),
    });
    expect(directive.status).toBe(201);
    expect((await manifest({ 'expo-current-update-id': staged, 'expo-embedded-update-id': randomUUID() })).status).toBe(
      200,
    );

    // Failure reports are written (and counted) once a second.
    let after = await metrics();
    while (moved(before, after, 'ferry_failure_reports_total', { kind: 'failed' }) < 1) after = await metrics();

    const labels = { platform: 'android', channel: 'production' };
    expect(moved(before, after, 'ferry_releases_published_total', { kind: 'publish' })).toBe(3);
    expect(moved(before, after, 'ferry_releases_published_total', { kind: 'directive' })).toBe(1);
    expect(moved(before, after, 'ferry_guard_blocked_total')).toBe(1);
    expect(moved(before, after, 'ferry_guard_bypassed_total')).toBe(1);
    expect(moved(before, after, 'ferry_rollout_changes_total', { action: 'percent' })).toBe(1);
    expect(moved(before, after, 'ferry_manifest_requests_total', { outcome: 'rollout-fallback', ...labels })).toBe(4);
    expect(moved(before, after, 'ferry_manifest_requests_total', { outcome: 'directive', ...labels })).toBe(1);
    expect(moved(before, after, 'ferry_manifest_requests_total', { outcome: 'refused', platform: 'other' })).toBe(1);
    expect(moved(before, after, 'ferry_failure_reports_total', { kind: 'failed' })).toBe(1);
    expect(moved(before, after, 'ferry_manifest_duration_seconds_count')).toBeGreaterThanOrEqual(6);
  });
});
