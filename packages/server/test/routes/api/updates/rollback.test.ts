import { TrackRollbackResponse } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../support/engines.js';
import { hashOf, PLACEHOLDER_ASSET_ORIGIN, releasePayload, storeAssets } from '../../../support/releases.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

let counter = 0;
const freshTrack = () => ({
  channel: 'production' as const,
  platform: 'ios' as const,
  runtimeVersion: `4.${++counter}.0(1)`,
});

describeEachEngine('POST /api/updates/rollback', (engine) => {
  let server: TestServer;
  // A clock the test controls, so "later than the newest" never depends on wall-clock speed.
  let clock = Date.parse('2026-03-01T00:00:00.000Z');
  beforeAll(async () => {
    server = await startTestServer(engine, { now: () => new Date(clock) });
  });
  afterAll(async () => server?.close());

  const publish = async (payload: unknown) => {
    await storeAssets(server, payload);
    return server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
  };
  const published = async (payload: unknown) => {
    const response = await publish(payload);
    expect(response.status).toBe(201);
    return (await response.json()).release as { id: string; createdAt: string };
  };
  const rollback = (body: unknown) =>
    server.authed('/api/updates/rollback', { method: 'POST', body: JSON.stringify(body) });
  const releaseCount = () => server.releaseStore.count();

  it('restores the release before the newest as a new, newest record with its fingerprint and policy', async () => {
    const track = freshTrack();
    const good = await published(
      releasePayload({
        ...track,
        fingerprint: 'fp-good',
        updatePolicy: 2,
        otaConfig: { name: 'good' },
        launchAsset: { url: `${PLACEHOLDER_ASSET_ORIGIN}/good.hbc`, hash: hashOf('good bundle') },
      }),
    );
    const bad = await published(
      releasePayload({
        ...track,
        fingerprint: 'fp-bad',
        allowNativeChange: true,
        updatePolicy: 3,
        otaConfig: { name: 'bad' },
      }),
    );

    const response = await rollback({ ...track, actor: 'alice', runId: '77' });
    expect(response.status).toBe(201);
    const body = TrackRollbackResponse.parse(await response.json());
    expect(body.restored.id).toBe(good.id);
    expect(body.replaced.id).toBe(bad.id);
    expect(body.release).toMatchObject({ ...track, fingerprint: 'fp-good', updatePolicy: 2 });
    expect(body.release.id).not.toBe(good.id);
    expect(Date.parse(body.release.createdAt)).toBeGreaterThan(Date.parse(bad.createdAt));

    const stored = await server.releaseStore.findById(body.release.id);
    expect(stored).toMatchObject({
      launchAsset: { url: (await server.releaseStore.findById(good.id))?.launchAsset.url, hash: hashOf('good bundle') },
      otaConfig: { name: 'good' },
      updatePolicy: 2,
      metadata: { fingerprint: 'fp-good', rolledBackFrom: good.id, actor: 'alice', runId: '77', commit: 'abc123' },
    });
    expect((await server.releaseStore.newest(track))?.id).toBe(body.release.id);
  });

  it('is later than the newest even when the clock stands still or steps back', async () => {
    const track = freshTrack();
    await published(releasePayload(track));
    const newest = await published(releasePayload(track));
    clock -= 60_000;
    const body = await (await rollback(track)).json();
    expect(Date.parse(body.release.createdAt)).toBe(Date.parse(newest.createdAt) + 1);
  });

  it('the next publish is still guarded by the restored fingerprint', async () => {
    const track = freshTrack();
    await published(releasePayload({ ...track, fingerprint: 'fp-a' }));
    await published(releasePayload({ ...track, fingerprint: 'fp-a' }));
    expect((await rollback(track)).status).toBe(201);
    expect((await publish(releasePayload({ ...track, fingerprint: 'fp-b' }))).status).toBe(409);
    expect((await publish(releasePayload({ ...track, fingerprint: 'fp-a' }))).status).toBe(201);
  });

  it('--to restores a named older release; the baseline follows it', async () => {
    const track = freshTrack();
    const first = await published(releasePayload({ ...track, fingerprint: 'fp-1' }));
    await published(releasePayload({ ...track, fingerprint: 'fp-2', allowNativeChange: true }));
    await published(releasePayload({ ...track, fingerprint: 'fp-3', allowNativeChange: true }));
    const body = await (await rollback({ ...track, to: first.id })).json();
    expect(body.restored.id).toBe(first.id);
    const baseline = await (
      await fetch(
        `${server.url}/api/updates/baseline-fingerprint?${new URLSearchParams({ platform: 'ios', runtimeVersion: track.runtimeVersion })}`,
      )
    ).json();
    expect(baseline).toMatchObject({ fingerprint: 'fp-1', releaseId: body.release.id });
  });

  it('writes a release.rolled_back audit event naming both releases and fingerprints', async () => {
    const track = freshTrack();
    const a = await published(releasePayload({ ...track, fingerprint: 'fp-a' }));
    const b = await published(releasePayload({ ...track, fingerprint: 'fp-b', allowNativeChange: true }));
    const body = await (await rollback({ ...track, actor: 'bob' })).json();
    const events = await server.app.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('release_id', '=', body.release.id)
      .execute();
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({ type: 'release.rolled_back', actor: 'bob', runtime_version: track.runtimeVersion });
    const details = typeof event?.details === 'string' ? JSON.parse(event.details) : event?.details;
    expect(details).toMatchObject({
      restoredReleaseId: a.id,
      replacedReleaseId: b.id,
      fingerprint: 'fp-a',
      replacedFingerprint: 'fp-b',
    });
  });

  describe('nothing to roll back to → 404, and nothing is stored', () => {
    it('empty track → 404 NOT_FOUND', async () => {
      const before = await releaseCount();
      const response = await rollback(freshTrack());
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe('NOT_FOUND');
      expect(await releaseCount()).toBe(before);
    });

    it('a single release → 404 NO_EARLIER_RELEASE', async () => {
      const track = freshTrack();
      await published(releasePayload(track));
      const before = await releaseCount();
      const response = await rollback(track);
      expect(response.status).toBe(404);
      const body = await response.json();
      expect(body.error.code).toBe('NO_EARLIER_RELEASE');
      expect(body.error.message).toContain(track.runtimeVersion);
      expect(await releaseCount()).toBe(before);
    });

    it('--to an unknown id, or a release of another track → 404', async () => {
      const track = freshTrack();
      await published(releasePayload(track));
      await published(releasePayload(track));
      const elsewhere = await published(releasePayload({ ...track, platform: 'android' }));
      const before = await releaseCount();
      for (const to of ['00000000-0000-4000-8000-000000000000', elsewhere.id]) {
        const response = await rollback({ ...track, to });
        expect(response.status).toBe(404);
        expect((await response.json()).error.code).toBe('NOT_FOUND');
      }
      expect(await releaseCount()).toBe(before);
    });

    it('--to the active release → 409 ALREADY_ACTIVE', async () => {
      const track = freshTrack();
      await published(releasePayload(track));
      const active = await published(releasePayload(track));
      const response = await rollback({ ...track, to: active.id });
      expect(response.status).toBe(409);
      expect((await response.json()).error.code).toBe('ALREADY_ACTIVE');
    });
  });

  it.each([
    ['missing', undefined],
    ['wrong', 'Bearer wrong-token-wrong-token'],
  ])('%s token → 401 and nothing stored', async (_name, authorization) => {
    const track = freshTrack();
    await published(releasePayload(track));
    await published(releasePayload(track));
    const before = await releaseCount();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (authorization) headers.authorization = authorization;
    const response = await fetch(`${server.url}/api/updates/rollback`, {
      method: 'POST',
      headers,
      body: JSON.stringify(track),
    });
    expect(response.status).toBe(401);
    expect(await releaseCount()).toBe(before);
  });

  it('the release token never reaches a log line, even at debug level', async () => {
    const track = freshTrack();
    await published(releasePayload(track));
    await published(releasePayload(track));
    server.app.log.level = 'debug';
    try {
      expect((await rollback({ ...track, actor: 'carol' })).status).toBe(201);
      expect((await server.authed(`/api/updates/releases?${new URLSearchParams(track)}`)).status).toBe(200);
    } finally {
      server.app.log.level = 'info';
    }
    expect(server.logs.text).not.toContain(server.token);
  });

  it('a stranger with a malformed body gets 401, not a validation report', async () => {
    const response = await fetch(`${server.url}/api/updates/rollback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'staging' }),
    });
    expect(response.status).toBe(401);
  });

  describe('validation → 400 and nothing stored', () => {
    const track = { channel: 'production', platform: 'ios', runtimeVersion: '1.0.0(1)' };
    it.each([
      ['unknown channel', { ...track, channel: 'staging' }],
      ['unknown platform', { ...track, platform: 'web' }],
      ['no runtimeVersion', { channel: 'production', platform: 'ios' }],
      ['to not a uuid', { ...track, to: '../../etc/passwd' }],
      ['an unknown field', { ...track, fingerprint: 'sneaky' }],
      ['actor too long', { ...track, actor: 'x'.repeat(256) }],
    ])('%s', async (_name, body) => {
      const before = await releaseCount();
      const response = await rollback(body);
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('VALIDATION_FAILED');
      expect(await releaseCount()).toBe(before);
    });

    it('malformed JSON → 400 INVALID_JSON', async () => {
      const response = await server.authed('/api/updates/rollback', { method: 'POST', body: '{"channel":' });
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('INVALID_JSON');
    });
  });
});
