import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../support/engines.js';
import { releasePayload, storeAssets } from '../../../support/releases.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

let n = 0;
const freshRuntime = () => `7.${++n}.0(${n})`;

describeEachEngine('GET /api/updates/baseline-fingerprint', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => server?.close());

  const publish = async (payload: ReturnType<typeof releasePayload>) => {
    await storeAssets(server, payload);
    const response = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
    expect(response.status).toBe(201);
    return (await response.json()).release;
  };
  const baseline = (query: Record<string, string>) =>
    fetch(`${server.url}/api/updates/baseline-fingerprint?${new URLSearchParams(query)}`);

  it('answers the newest production release of the combination, without authentication', async () => {
    const runtimeVersion = freshRuntime();
    await publish(releasePayload({ runtimeVersion, fingerprint: 'first' }));
    const newest = await publish(releasePayload({ runtimeVersion, fingerprint: 'first' }));
    const response = await baseline({ channel: 'production', platform: 'ios', runtimeVersion });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ fingerprint: 'first', releaseId: newest.id, createdAt: newest.createdAt });
  });

  it('is the same record the guard compares with, including after a bypass', async () => {
    const runtimeVersion = freshRuntime();
    await publish(releasePayload({ runtimeVersion, fingerprint: 'old' }));
    const bypass = await publish(releasePayload({ runtimeVersion, fingerprint: 'new', allowNativeChange: true }));
    const body = await (await baseline({ platform: 'ios', runtimeVersion, channel: 'production' })).json();
    expect(body).toMatchObject({ fingerprint: 'new', releaseId: bypass.id });
  });

  it('channel defaults to production', async () => {
    const runtimeVersion = freshRuntime();
    await publish(releasePayload({ runtimeVersion, fingerprint: 'p' }));
    await publish(releasePayload({ runtimeVersion, fingerprint: 'd', channel: 'development' }));
    expect(await (await baseline({ platform: 'ios', runtimeVersion })).json()).toMatchObject({ fingerprint: 'p' });
    expect(await (await baseline({ platform: 'ios', runtimeVersion, channel: 'development' })).json()).toMatchObject({
      fingerprint: 'd',
    });
  });

  it('fingerprint is null when the newest release stored none', async () => {
    const runtimeVersion = freshRuntime();
    await publish(releasePayload({ runtimeVersion, fingerprint: 'x' }));
    const bare = await publish(releasePayload({ runtimeVersion, fingerprint: undefined }));
    expect(await (await baseline({ platform: 'ios', runtimeVersion })).json()).toMatchObject({
      fingerprint: null,
      releaseId: bare.id,
    });
  });

  it('is per platform: 404 when the combination has no release', async () => {
    const runtimeVersion = freshRuntime();
    await publish(releasePayload({ runtimeVersion, platform: 'ios' }));
    const response = await baseline({ platform: 'android', runtimeVersion });
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('NOT_FOUND');
  });

  it.each([
    ['missing platform', { runtimeVersion: '1.0.0(1)' }],
    ['missing runtimeVersion', { platform: 'ios' }],
    ['unknown platform', { platform: 'web', runtimeVersion: '1' }],
    ['unknown channel', { platform: 'ios', runtimeVersion: '1', channel: 'staging' }],
    ['runtimeVersion over 255 characters', { platform: 'ios', runtimeVersion: 'x'.repeat(256) }],
  ])('%s → 400 VALIDATION_FAILED', async (_name, query) => {
    const response = await baseline(query);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details.fields.length).toBeGreaterThan(0);
  });
});

describeEachEngine('baseline-fingerprint rate limit', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { env: { BASELINE_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(async () => server?.close());

  it('answers 429 RATE_LIMITED past the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${server.url}/api/updates/baseline-fingerprint?platform=ios&runtimeVersion=1`);
      statuses.push(response.status);
      if (response.status === 429) {
        expect((await response.json()).error.code).toBe('RATE_LIMITED');
        expect(response.headers.get('retry-after')).toBeTruthy();
      }
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
  });
});
