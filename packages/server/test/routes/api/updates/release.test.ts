import type { ReleasePayloadInput } from '@ferry/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../support/engines.js';
import { releasePayload, servedAt, storeAssets } from '../../../support/releases.js';
import { rowCounts } from '../../../support/row-counts.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

let trackCounter = 0;
/** Every test publishes to a fresh track so tests never see each other's releases. */
const freshTrack = () => ({ runtimeVersion: `9.${++trackCounter}.0(${trackCounter})` });

describeEachEngine('POST /api/updates/release', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => server?.close());

  const publish = async (payload: unknown, init: RequestInit = {}) => {
    await storeAssets(server, payload);
    return server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload), ...init });
  };
  const tableCounts = () => rowCounts(server.app.database.db, ['releases', 'audit_events']);
  const auditFor = async (releaseId: string) =>
    server.app.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('release_id', '=', releaseId)
      .orderBy('seq')
      .execute();

  describe('success', () => {
    it('answers 201 with the release summary and stores every field', async () => {
      const payload = releasePayload({ ...freshTrack(), updatePolicy: 2 });
      const response = await publish(payload);
      expect(response.status).toBe(201);
      const body = await response.json();
      expect(body).toEqual({
        release: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          channel: 'production',
          platform: 'ios',
          runtimeVersion: payload.runtimeVersion,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          updatePolicy: 2,
          fingerprint: 'fp-a',
          // Published without a group: a group of its own.
          groupId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        },
      });
      const stored = await server.releaseStore.findById(body.release.id);
      // The assets at the URLs this server serves them at, as the test client posted them (servedAt).
      const served = JSON.parse(servedAt(JSON.stringify(payload), `${server.url}/objects`));
      expect(stored).toMatchObject({
        launchAsset: served.launchAsset,
        assets: served.assets,
        otaConfig: payload.otaConfig,
        updatePolicy: 2,
        metadata: { ...payload.metadata, fingerprint: 'fp-a' },
      });
    });

    it('needs only channel, platform, runtimeVersion and launchAsset', async () => {
      const { channel, platform, launchAsset } = releasePayload();
      const response = await publish({ channel, platform, launchAsset, ...freshTrack() });
      expect(response.status).toBe(201);
      const { release } = await response.json();
      const stored = await server.releaseStore.findById(release.id);
      expect(stored).toMatchObject({
        assets: [],
        otaConfig: null,
        updatePolicy: null,
        metadata: { fingerprint: null },
      });
    });

    it('writes a release.created audit event with both fingerprints', async () => {
      const track = freshTrack();
      await publish(releasePayload({ ...track, fingerprint: 'one' }));
      const second = await (await publish(releasePayload({ ...track, fingerprint: 'one' }))).json();
      const [event] = await auditFor(second.release.id);
      expect(event).toMatchObject({ type: 'release.created', actor: 'ci', runtime_version: track.runtimeVersion });
      expect(
        JSON.parse(String(typeof event?.details === 'string' ? event.details : JSON.stringify(event?.details))),
      ).toMatchObject({
        guard: 'same-fingerprint',
        baselineFingerprint: 'one',
        fingerprint: 'one',
      });
    });
  });

  describe('authentication', () => {
    it.each([
      ['missing', undefined],
      ['wrong', 'Bearer not-the-token-not-the-token'],
      ['wrong scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['empty bearer', 'Bearer '],
    ])('%s token → 401 with WWW-Authenticate and nothing stored', async (_name, authorization) => {
      const before = await tableCounts();
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (authorization) headers.authorization = authorization;
      const response = await fetch(`${server.url}/api/updates/release`, {
        method: 'POST',
        headers,
        body: JSON.stringify(releasePayload(freshTrack())),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await response.json()).error.code).toBe('UNAUTHORIZED');
      expect(await tableCounts()).toEqual(before);
    });
    it('checks the token before reading the body: an unauthenticated bad body is 401, not 400', async () => {
      const response = await fetch(`${server.url}/api/updates/release`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"not json',
      });
      expect(response.status).toBe(401);
    });
  });

  // The spec's guard table over HTTP: [name, earlier release (or none), candidate, expected status].
  type Row = [string, Partial<ReleasePayloadInput> | null, Partial<ReleasePayloadInput>, number];
  const guardRows: Row[] = [
    ['production, same fingerprint → 201', { fingerprint: 'A' }, { fingerprint: 'A' }, 201],
    ['production, different fingerprint → 409', { fingerprint: 'A' }, { fingerprint: 'B' }, 409],
    [
      'development, different fingerprint → 201',
      { channel: 'development', fingerprint: 'A' },
      { channel: 'development', fingerprint: 'B' },
      201,
    ],
    ['no earlier release → 201', null, { fingerprint: 'B' }, 201],
    ['earlier release without fingerprint → 201', { fingerprint: undefined }, { fingerprint: 'B' }, 201],
    [
      '-pre track → 201',
      { fingerprint: 'A', runtimeVersion: 'X-pre' },
      { fingerprint: 'B', runtimeVersion: 'X-pre' },
      201,
    ],
    ['no fingerprint in payload → 201', { fingerprint: 'A' }, { fingerprint: undefined }, 201],
    ['allowNativeChange → 201', { fingerprint: 'A' }, { fingerprint: 'B', allowNativeChange: true }, 201],
    ['allowNativeChange false → 409', { fingerprint: 'A' }, { fingerprint: 'B', allowNativeChange: false }, 409],
  ];

  describe('the native-change guard', () => {
    it.each(guardRows)('%s', async (_name, earlier, candidate, status) => {
      const track = freshTrack();
      const runtimeVersion = candidate.runtimeVersion
        ? `${track.runtimeVersion}-${candidate.runtimeVersion}`
        : track.runtimeVersion;
      if (earlier) expect((await publish(releasePayload({ ...earlier, runtimeVersion }))).status).toBe(201);
      const before = await tableCounts();
      const response = await publish(releasePayload({ ...candidate, runtimeVersion }));
      expect(response.status).toBe(status);
      if (status === 409) {
        const body = await response.json();
        expect(body.error.code).toBe('NATIVE_FINGERPRINT_CHANGED');
        expect(body.error.message).toContain(runtimeVersion);
        expect(body.error.message).toMatch(/higher build number/);
        // No release; the block itself is audited (guard.blocked, counted per track by the console).
        expect(await tableCounts()).toEqual({ ...before, audit_events: before.audit_events + 1 });
        const blocked = await server.app.database.db
          .selectFrom('audit_events')
          .selectAll()
          .where('type', '=', 'guard.blocked')
          .where('runtime_version', '=', runtimeVersion)
          .execute();
        expect(blocked).toHaveLength(1);
        // The publisher's actor, as its publishes are audited.
        expect(blocked[0]).toMatchObject({ actor: 'ci', release_id: null, channel: 'production' });
        const details = blocked[0]?.details;
        expect(typeof details === 'string' ? JSON.parse(details) : details).toMatchObject({
          fingerprint: 'B',
          baselineFingerprint: 'A',
        });
      }
    });

    it('the guard is per platform and per channel', async () => {
      const track = freshTrack();
      await publish(releasePayload({ ...track, platform: 'ios', fingerprint: 'ios-fp' }));
      expect((await publish(releasePayload({ ...track, platform: 'android', fingerprint: 'android-fp' }))).status).toBe(
        201,
      );
      expect((await publish(releasePayload({ ...track, platform: 'android', fingerprint: 'ios-fp' }))).status).toBe(
        409,
      );
    });

    it('a passing release becomes the next comparison base', async () => {
      const track = freshTrack();
      await publish(releasePayload({ ...track, fingerprint: 'A' }));
      expect((await publish(releasePayload({ ...track, fingerprint: 'B', allowNativeChange: true }))).status).toBe(201);
      expect((await publish(releasePayload({ ...track, fingerprint: 'B' }))).status).toBe(201);
      expect((await publish(releasePayload({ ...track, fingerprint: 'A' }))).status).toBe(409);
    });

    it('a bypass is written to the audit table and as a warning log line', async () => {
      const track = freshTrack();
      await publish(releasePayload({ ...track, fingerprint: 'A' }));
      const response = await publish(releasePayload({ ...track, fingerprint: 'B', allowNativeChange: true }));
      const { release } = await response.json();
      const events = await auditFor(release.id);
      expect(events.map((e) => e.type)).toEqual(['guard.bypassed', 'release.created']);
      const details = typeof events[0]?.details === 'string' ? JSON.parse(events[0].details) : events[0]?.details;
      expect(details).toMatchObject({ baselineFingerprint: 'A', fingerprint: 'B', wouldHaveBlocked: true });
      const warning = server.logs.entries().find((e) => e.level === 40 && e.releaseId === release.id);
      expect(warning?.msg).toMatch(/guard bypassed/);
    });

    it('20 concurrent production publishes with 20 fingerprints: exactly one is stored, 19 get 409', async () => {
      const track = freshTrack();
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => publish(releasePayload({ ...track, fingerprint: `concurrent-${i}` }))),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      const stored = await server.releaseStore.list({ channel: 'production', platform: 'ios', ...track }, 100);
      expect(stored).toHaveLength(1);
    });
  });

  describe('bad input gives 4xx and leaves the tables unchanged', () => {
    const raw = (body: string, contentType = 'application/json') =>
      server.authed('/api/updates/release', { method: 'POST', body, headers: { 'content-type': contentType } });

    const cases: Array<[string, () => Promise<Response>, number, string]> = [
      ['malformed JSON', () => raw('{"channel": "production",'), 400, 'INVALID_JSON'],
      ['empty body', () => raw(''), 400, 'INVALID_JSON'],
      ['a JSON array', () => raw('[]'), 400, 'VALIDATION_FAILED'],
      [
        'wrong content type',
        () => raw('channel=production', 'application/x-www-form-urlencoded'),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        'runtimeVersion as a number',
        () => publish(releasePayload({ runtimeVersion: 1 as never })),
        400,
        'VALIDATION_FAILED',
      ],
      ['assets not a list', () => publish(releasePayload({ assets: {} as never })), 400, 'VALIDATION_FAILED'],
      [
        'launchAsset without hash',
        () => publish(releasePayload({ launchAsset: { url: 'https://x.test/a' } as never })),
        400,
        'VALIDATION_FAILED',
      ],
      ['missing launchAsset', () => publish({ ...releasePayload(), launchAsset: undefined }), 400, 'VALIDATION_FAILED'],
      ['updatePolicy 0', () => publish(releasePayload({ updatePolicy: 0 as never })), 400, 'VALIDATION_FAILED'],
      ['updatePolicy 4', () => publish(releasePayload({ updatePolicy: 4 as never })), 400, 'VALIDATION_FAILED'],
      ['updatePolicy "2"', () => publish(releasePayload({ updatePolicy: '2' as never })), 400, 'VALIDATION_FAILED'],
      ['updatePolicy 2.5', () => publish(releasePayload({ updatePolicy: 2.5 as never })), 400, 'VALIDATION_FAILED'],
      ['unknown channel', () => publish(releasePayload({ channel: 'staging' as never })), 400, 'VALIDATION_FAILED'],
      ['unknown platform', () => publish(releasePayload({ platform: 'web' as never })), 400, 'VALIDATION_FAILED'],
      ['empty runtimeVersion', () => publish(releasePayload({ runtimeVersion: '' })), 400, 'VALIDATION_FAILED'],
      [
        'runtimeVersion over 255 chars',
        () => publish(releasePayload({ runtimeVersion: 'x'.repeat(256) })),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'runtimeVersion with a newline',
        () => publish(releasePayload({ runtimeVersion: '1.0\n(1)' })),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'allowNativeChange as a string',
        () => publish(releasePayload({ allowNativeChange: 'true' as never })),
        400,
        'VALIDATION_FAILED',
      ],
      ['an unknown field', () => publish({ ...releasePayload(), extra: 1 }), 400, 'VALIDATION_FAILED'],
      [
        'SQL in the channel',
        () => publish(releasePayload({ channel: "production'; drop table releases; --" as never })),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'a non-http asset url',
        () => publish(releasePayload({ launchAsset: { url: 'file:///etc/passwd', hash: 'a'.repeat(43) } })),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'an oversized body',
        () => publish(releasePayload({ otaConfig: { blob: 'x'.repeat(1024 * 1024 + 10) } })),
        413,
        'PAYLOAD_TOO_LARGE',
      ],
    ];

    it.each(cases)('%s → %i %s', async (_name, send, status, code) => {
      const before = await tableCounts();
      const response = await send();
      expect(response.status).toBe(status);
      const body = await response.json();
      expect(body.error.code).toBe(code);
      expect(typeof body.error.message).toBe('string');
      expect(body.error.details).toBeTypeOf('object');
      expect(await tableCounts()).toEqual(before);
    });

    it('names the failing fields', async () => {
      const response = await publish(releasePayload({ updatePolicy: 4 as never, channel: 'staging' as never }));
      const body = await response.json();
      const paths = body.error.details.fields.map((f: { path: string }) => f.path);
      expect(paths).toEqual(expect.arrayContaining(['body.updatePolicy', 'body.channel']));
    });

    it('quotes and SQL fragments in valid strings are stored verbatim, never executed', async () => {
      const runtimeVersion = `1.0'); drop table releases; -- "${trackCounter++}"`;
      const metadata = {
        commit: "'; delete from releases where '1'='1",
        branch: 'robert"); --',
        actor: "O'Brien",
        runId: '1 or 1=1',
      };
      const response = await publish(releasePayload({ runtimeVersion, metadata }));
      expect(response.status).toBe(201);
      const { release } = await response.json();
      const stored = await server.releaseStore.findById(release.id);
      expect(stored?.runtimeVersion).toBe(runtimeVersion);
      expect(stored?.metadata).toMatchObject(metadata);
      expect((await tableCounts()).releases).toBeGreaterThan(1);
    });
  });

  describe('storage constraints', () => {
    it.each([[4], [0], [-1]])('a direct insert with update_policy = %i fails', async (policy) => {
      const db = server.app.database.db;
      const before = await tableCounts();
      await expect(
        sql`insert into releases (id, channel, platform, runtime_version, launch_asset, assets, metadata, update_policy, created_at)
            values ('direct-${sql.raw(String(policy + 10))}', 'production', 'ios', '1', '{}', '[]', '{}', ${policy}, 0)`.execute(
          db,
        ),
      ).rejects.toThrow(/check/i);
      expect(await tableCounts()).toEqual(before);
    });

    it.each([
      ['channel', "'staging', 'ios'"],
      ['platform', "'production', 'web'"],
    ])('a direct insert with an unknown %s fails', async (_field, values) => {
      const db = server.app.database.db;
      await expect(
        sql`insert into releases (id, channel, platform, runtime_version, launch_asset, assets, metadata, created_at)
            values ('direct-x', ${sql.raw(values)}, '1', '{}', '[]', '{}', 0)`.execute(db),
      ).rejects.toThrow(/check/i);
    });
  });
});
