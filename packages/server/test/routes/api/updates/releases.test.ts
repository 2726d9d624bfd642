import { ReleaseListResponse } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../support/engines.js';
import { releasePayload, storeAssets } from '../../../support/releases.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

let counter = 0;
const freshTrack = () => ({
  channel: 'production' as const,
  platform: 'ios' as const,
  runtimeVersion: `3.${++counter}.0(1)`,
});
const query = (params: Record<string, string | number>) =>
  `/api/updates/releases?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;

describeEachEngine('GET /api/updates/releases', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => server?.close());

  const publish = async (payload: unknown) => {
    await storeAssets(server, payload);
    const response = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
    expect(response.status).toBe(201);
    return (await response.json()).release.id as string;
  };

  it('lists a track newest first with summary, metadata and asset count', async () => {
    const track = freshTrack();
    const first = await publish(releasePayload({ ...track, fingerprint: 'fp-1', updatePolicy: 2 }));
    const second = await publish(releasePayload({ ...track, fingerprint: 'fp-1', assets: [] }));
    await publish(releasePayload({ ...track, platform: 'android' }));

    const response = await server.authed(query(track));
    expect(response.status).toBe(200);
    const body = ReleaseListResponse.parse(await response.json());
    expect(body.releases.map((r) => r.id)).toEqual([second, first]);
    expect(body.releases[1]).toMatchObject({
      ...track,
      updatePolicy: 2,
      fingerprint: 'fp-1',
      assetCount: 1,
      metadata: { commit: 'abc123', branch: 'main', actor: 'ci', runId: '42', fingerprint: 'fp-1' },
    });
    expect(body.releases[0]?.assetCount).toBe(0);
  });

  it('honours limit and answers an empty list for an unknown track', async () => {
    const track = freshTrack();
    for (let i = 0; i < 3; i++) await publish(releasePayload(track));
    const limited = await (await server.authed(query({ ...track, limit: 2 }))).json();
    expect(limited.releases).toHaveLength(2);
    const empty = await server.authed(query({ ...freshTrack() }));
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ releases: [] });
  });

  it.each([
    ['missing', undefined],
    ['wrong', 'Bearer wrong-token-wrong-token'],
  ])('%s token → 401', async (_name, authorization) => {
    const response = await fetch(server.url + query(freshTrack()), {
      headers: authorization ? { authorization } : {},
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await response.json()).error.code).toBe('UNAUTHORIZED');
  });

  it('a stranger with a malformed query gets 401, not a validation report', async () => {
    const response = await fetch(`${server.url}${query({ channel: 'staging' })}`);
    expect(response.status).toBe(401);
  });

  describe('validation → 400 VALIDATION_FAILED naming the field', () => {
    const base = { channel: 'production', platform: 'ios', runtimeVersion: '1.0.0(1)' };
    it.each([
      ['no channel', { platform: 'ios', runtimeVersion: '1' }, 'channel'],
      ['unknown channel', { ...base, channel: 'staging' }, 'channel'],
      ['unknown platform', { ...base, platform: 'web' }, 'platform'],
      ['no runtimeVersion', { channel: 'production', platform: 'ios' }, 'runtimeVersion'],
      ['limit 0', { ...base, limit: 0 }, 'limit'],
      ['limit 101', { ...base, limit: 101 }, 'limit'],
      ['limit not a number', { ...base, limit: 'ten' }, 'limit'],
      ['limit fractional', { ...base, limit: 1.5 }, 'limit'],
      ['unknown parameter', { ...base, offset: 3 }, ''],
    ])('%s', async (_name, params, field) => {
      const response = await server.authed(query(params as Record<string, string>));
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      if (field) expect(JSON.stringify(body.error.details.fields)).toContain(field);
    });
  });
});
