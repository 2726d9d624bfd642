import { RELEASE_MESSAGE_MAX_LENGTH, type ReleaseListItem, ReleaseListResponse } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../../../src/ota/release-listing.js';
import { describeEachEngine } from '../../../support/engines.js';
import { fetchManifestLikeExpo } from '../../../support/expo-client.js';
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

const publisher = (server: () => TestServer) => async (payload: unknown) => {
  await storeAssets(server(), payload);
  const response = await server().authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
  expect(response.status).toBe(201);
  return (await response.json()).release.id as string;
};

const list = async (server: TestServer, params: Record<string, string | number>) => {
  const response = await server.authed(query(params));
  expect(response.status).toBe(200);
  return ReleaseListResponse.parse(await response.json());
};

describeEachEngine('GET /api/updates/releases', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => server?.close());
  const publish = publisher(() => server);

  it('lists a track newest first with summary, metadata and asset count', async () => {
    const track = freshTrack();
    const first = await publish(releasePayload({ ...track, fingerprint: 'fp-1', updatePolicy: 2 }));
    const second = await publish(releasePayload({ ...track, fingerprint: 'fp-1', assets: [] }));
    await publish(releasePayload({ ...track, platform: 'android' }));

    const body = await list(server, track);
    expect(body.releases.map((r) => r.id)).toEqual([second, first]);
    expect(body.nextCursor).toBeNull();
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
    const limited = await list(server, { ...track, limit: 2 });
    expect(limited.releases).toHaveLength(2);
    expect(limited.nextCursor).toEqual(expect.any(String));
    const rest = await list(server, { ...track, limit: 2, cursor: limited.nextCursor! });
    expect(rest.releases).toHaveLength(1);
    expect(rest.nextCursor).toBeNull();
    expect(await list(server, freshTrack())).toEqual({ releases: [], nextCursor: null });
  });

  it('a track listed in full is the same history whatever the page size (first = active)', async () => {
    const track = freshTrack();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift(await publish(releasePayload(track)));
    for (const limit of [1, 2, 3, 5, 100]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: ReleaseListResponse = await list(server, { ...track, limit, ...(cursor ? { cursor } : {}) });
        seen.push(...page.releases.map((r) => r.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(ids);
    }
    const newest = await server.releaseStore.newest(track);
    expect((await list(server, { ...track, limit: 1 })).releases[0]?.id).toBe(newest?.id);
  });

  describe('message', () => {
    it('is stored with the release and listed, but never put in the public manifest', async () => {
      const track = freshTrack();
      const message = 'Fix the login screen — ünïcode and "quotes"';
      const id = await publish(
        releasePayload({ ...track, metadata: { commit: 'c0ffee', branch: 'main', actor: 'ci', message } }),
      );
      const [item] = (await list(server, track)).releases;
      expect(item).toMatchObject({ id, metadata: { message, commit: 'c0ffee' } });

      const fetched = await fetchManifestLikeExpo(server.url, 'expo', track, {
        certificatePem: server.certificatePem,
        keyId: 'main',
      });
      expect(fetched.kind).toBe('update');
      if (fetched.kind !== 'update') return;
      expect(fetched.manifest.id).toBe(id);
      expect(fetched.manifest.metadata).toEqual({ channel: 'production', commit: 'c0ffee' });
      expect(JSON.stringify(fetched.manifest)).not.toContain('login screen');
    });

    it('a rollback keeps the message of the release it restores', async () => {
      const track = freshTrack();
      const first = await publish(releasePayload({ ...track, metadata: { message: 'first' } }));
      await publish(releasePayload({ ...track, metadata: { message: 'second' } }));
      const response = await server.authed('/api/updates/rollback', { method: 'POST', body: JSON.stringify(track) });
      expect(response.status).toBe(201);
      const [restored] = (await list(server, track)).releases;
      expect(restored?.metadata).toMatchObject({ message: 'first', rolledBackFrom: first });
    });

    it.each([
      ['a line break', 'one\ntwo'],
      ['NUL', 'a\u0000b'],
      ['an escape sequence', '\u001b[31mred'],
      ['a lone surrogate', 'a\ud800b'],
      ['more than the bound', 'x'.repeat(RELEASE_MESSAGE_MAX_LENGTH + 1)],
    ])('with %s → 400 naming body.metadata.message, nothing stored', async (_name, message) => {
      const track = freshTrack();
      const payload = releasePayload({ ...track, metadata: { message } });
      await storeAssets(server, payload);
      const response = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.details.fields.map((f: { path: string }) => f.path)).toContain('body.metadata.message');
      expect((await list(server, track)).releases).toEqual([]);
    });

    it(`a message of exactly ${RELEASE_MESSAGE_MAX_LENGTH} characters is kept whole`, async () => {
      const track = freshTrack();
      const message = 'é'.repeat(RELEASE_MESSAGE_MAX_LENGTH);
      await publish(releasePayload({ ...track, metadata: { message } }));
      expect((await list(server, track)).releases[0]?.metadata.message).toBe(message);
    });
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
    const response = await fetch(`${server.url}${query({ channel: 'staging', cursor: '%%%' })}`);
    expect(response.status).toBe(401);
  });

  describe('validation → 400 VALIDATION_FAILED naming the field', () => {
    const base = { channel: 'production', platform: 'ios', runtimeVersion: '1.0.0(1)' };
    it.each([
      ['unknown channel', { ...base, channel: 'staging' }, 'channel'],
      ['unknown platform', { platform: 'web' }, 'platform'],
      ['runtimeVersion with a space at the end', { runtimeVersion: '1.0.0 ' }, 'runtimeVersion'],
      ['limit 0', { ...base, limit: 0 }, 'limit'],
      ['limit 101', { limit: 101 }, 'limit'],
      ['limit not a number', { ...base, limit: 'ten' }, 'limit'],
      ['limit fractional', { ...base, limit: 1.5 }, 'limit'],
      ['cursor not base64url', { cursor: 'a+b/c=' }, 'cursor'],
      ['cursor empty', { cursor: '' }, 'cursor'],
      ['cursor that no answer gave', { cursor: Buffer.from('hello').toString('base64url') }, 'cursor'],
      ['cursor too long', { cursor: 'A'.repeat(129) }, 'cursor'],
      ['unknown parameter', { ...base, offset: 3 }, ''],
    ])('%s', async (_name, params, field) => {
      const response = await server.authed(query(params as Record<string, string>));
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = await response.json();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      if (field) expect(JSON.stringify(body.error.details.fields)).toContain(field);
    });
  });
});

/**
 * Listings across tracks, on a server of their own so the expected lists are exact. The clock is
 * fixed: releases of different tracks then share a createdAt, and only the insertion order (seq)
 * tells them apart, which is what the cursor must get right.
 */
describeEachEngine('GET /api/updates/releases across tracks', (engine) => {
  let server: TestServer;
  let clock = Date.parse('2026-03-01T10:00:00.000Z');
  beforeAll(async () => {
    server = await startTestServer(engine, { now: () => new Date(clock) });
  });
  afterAll(async () => server?.close());
  const publish = publisher(() => server);

  type Published = { id: string; channel: string; platform: string; runtimeVersion: string };
  /** Every release published here, newest first, as the listing orders them. */
  const published: Published[] = [];
  const publishTo = async (channel: 'production' | 'development', platform: 'ios' | 'android', runtime: string) => {
    const id = await publish(releasePayload({ channel, platform, runtimeVersion: runtime, fingerprint: null }));
    published.unshift({ id, channel, platform, runtimeVersion: runtime });
    return id;
  };
  const idsOf = (releases: ReleaseListItem[]) => releases.map((r) => r.id);
  const expected = (keep: (r: Published) => boolean) => published.filter(keep).map((r) => r.id);

  const readAll = async (params: Record<string, string | number>, between?: () => Promise<void>) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ReleaseListResponse = await list(server, { ...params, ...(cursor ? { cursor } : {}) });
      seen.push(...idsOf(page.releases));
      cursor = page.nextCursor;
      pages++;
      if (cursor) await between?.();
    } while (cursor);
    return { seen, pages };
  };

  beforeAll(async () => {
    // Several tracks at the same instant, then a later instant: ties on createdAt across tracks.
    for (const step of [0, 0, 1000]) {
      clock += step;
      await publishTo('production', 'ios', '1.0.0(1)');
      await publishTo('production', 'android', '1.0.0(3)');
      await publishTo('development', 'ios', '1.0.0(1)');
      await publishTo('development', 'android', '1.1.0(4)');
    }
  });

  it('without filters: every release, newest first by createdAt, then insertion order', async () => {
    const body = await list(server, { limit: 100 });
    expect(idsOf(body.releases)).toEqual(published.map((r) => r.id));
    const times = body.releases.map((r) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Ties across tracks exist, so the order above was decided by seq for some pairs.
    expect(new Set(times).size).toBeLessThan(times.length);
  });

  it.each([
    ['channel', { channel: 'development' }],
    ['platform', { platform: 'android' }],
    ['runtimeVersion', { runtimeVersion: '1.0.0(1)' }],
    ['channel and platform', { channel: 'production', platform: 'android' }],
    ['channel and runtimeVersion', { channel: 'development', runtimeVersion: '1.1.0(4)' }],
    ['platform and runtimeVersion', { platform: 'ios', runtimeVersion: '1.0.0(1)' }],
    ['a whole track', { channel: 'production', platform: 'ios', runtimeVersion: '1.0.0(1)' }],
    ['nothing that exists', { channel: 'production', runtimeVersion: '9.9.9' }],
  ])('filtered by %s', async (_name, filter: Record<string, string>) => {
    const keep = (r: Published) => Object.entries(filter).every(([key, value]) => r[key as keyof Published] === value);
    expect(idsOf((await list(server, { ...filter, limit: 100 })).releases)).toEqual(expected(keep));
    // The same list a page of 2 at a time.
    expect((await readAll({ ...filter, limit: 2 })).seen).toEqual(expected(keep));
  });

  it.each([1, 2, 3, 5, 7])('pages of %i cover every release once, in order', async (limit) => {
    const { seen, pages } = await readAll({ limit });
    expect(seen).toEqual(published.map((r) => r.id));
    expect(pages).toBe(Math.ceil(published.length / limit));
  });

  it('paging while new releases arrive: no duplicate, no gap; the new ones lead the next first page', async () => {
    const before = published.map((r) => r.id);
    const arrived: string[] = [];
    const { seen } = await readAll({ limit: 3 }, async () => {
      // A publish to a track the pages already passed, and to a new one; some at the same instant.
      arrived.unshift(await publishTo('production', 'ios', '1.0.0(1)'));
      clock += 1;
      arrived.unshift(await publishTo('development', 'ios', `2.0.${arrived.length}`));
    });
    expect(arrived.length).toBeGreaterThan(0);
    expect(seen).toEqual(before);
    const fresh = await list(server, { limit: arrived.length });
    expect(idsOf(fresh.releases)).toEqual(arrived);
  });

  it('a cursor past every release answers an empty last page', async () => {
    const body = await list(server, { cursor: encodeCursor({ createdAt: 0, seq: 0 }) });
    expect(body).toEqual({ releases: [], nextCursor: null });
  });
});
