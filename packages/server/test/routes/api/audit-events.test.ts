import { randomUUID } from 'node:crypto';
import { AUDIT_EXPORT_MAX_LIMIT, AuditEvent } from '@ferry/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_EXPORT_BATCH, AuditBusy, AuditExport, toAuditEvent } from '../../../src/ota/audit-export.js';
import { describeEachEngine } from '../../support/engines.js';
import { releasePayload, storeAssets } from '../../support/releases.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

type Params = Record<string, string | number | string[]>;

const target = (params: Params) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const each of Array.isArray(value) ? value : [value]) search.append(key, String(each));
  }
  return `/api/audit-events?${search}`;
};

/** Every line must be one whole event; the body ends with a newline unless it is empty. */
function parseNdjson(text: string): AuditEvent[] {
  if (text === '') return [];
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => AuditEvent.parse(JSON.parse(line)));
}

describeEachEngine('GET /api/audit-events', (engine) => {
  let server: TestServer;
  let clock = Date.parse('2026-04-01T08:00:00.000Z');
  beforeAll(async () => {
    // The poller below asks as fast as it can while releases are published.
    server = await startTestServer(engine, {
      now: () => new Date(clock),
      env: { RELEASE_RATE_LIMIT_PER_MINUTE: '100000' },
    });
  });
  afterAll(async () => server?.close());

  const publish = async (overrides: Parameters<typeof releasePayload>[0]) => {
    const payload = releasePayload(overrides);
    await storeAssets(server, payload);
    const response = await server.authed('/api/updates/release', { method: 'POST', body: JSON.stringify(payload) });
    expect(response.status).toBe(201);
    return (await response.json()).release.id as string;
  };

  const exportOf = async (params: Params) => {
    const response = await server.authed(target(params));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    return parseNdjson(await response.text());
  };

  const storedEvents = async () =>
    (await server.app.database.db.selectFrom('audit_events').selectAll().orderBy('seq').execute()).map(toAuditEvent);

  const track = { channel: 'production', platform: 'ios', runtimeVersion: '4.0.0(1)' } as const;
  let firstRelease: string;
  let bypassRelease: string;
  let startOfSecondHour: string;

  beforeAll(async () => {
    // An hour of activity: two releases, a guard bypass; then another hour: a rollback, another track.
    firstRelease = await publish({ ...track, fingerprint: 'fp-1' });
    clock += 60_000;
    bypassRelease = await publish({ ...track, fingerprint: 'fp-2', allowNativeChange: true });
    clock += 3_600_000;
    startOfSecondHour = new Date(clock).toISOString();
    const rollback = await server.authed('/api/updates/rollback', { method: 'POST', body: JSON.stringify(track) });
    expect(rollback.status).toBe(201);
    clock += 1000;
    await publish({ channel: 'development', platform: 'android', runtimeVersion: '4.0.0(2)' });
  });

  it('answers every event as NDJSON, oldest first, with the stored fields', async () => {
    const response = await server.authed(target({}));
    expect(response.headers.get('content-length')).toBeNull(); // streamed, not built whole
    expect(response.headers.get('cache-control')).toBe('no-store');
    const events = parseNdjson(await response.text());
    expect(events).toEqual(await storedEvents());
    expect(events.map((e) => e.type)).toEqual([
      'release.created',
      'guard.bypassed',
      'release.created',
      'release.rolled_back',
      'release.created',
    ]);
    expect(events[1]).toMatchObject({
      ...track,
      actor: expect.any(String),
      releaseId: bypassRelease,
      details: { baselineReleaseId: firstRelease, baselineFingerprint: 'fp-1', fingerprint: 'fp-2' },
      createdAt: new Date(Date.parse('2026-04-01T08:01:00.000Z')).toISOString(),
    });
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(JSON.stringify(events)).not.toContain(server.token);
  });

  it.each([
    ['one type', { type: 'release.created' }, ['release.created']],
    ['a comma list', { type: 'release.rolled_back,guard.bypassed' }, ['guard.bypassed', 'release.rolled_back']],
    [
      'a repeated parameter',
      { type: ['guard.bypassed', 'release.rolled_back'] },
      ['guard.bypassed', 'release.rolled_back'],
    ],
    [
      'both, with spaces',
      { type: ['guard.bypassed, release.rolled_back', 'guard.bypassed'] },
      ['guard.bypassed', 'release.rolled_back'],
    ],
    ['a type nobody wrote', { type: 'rollout.halted' }, []],
  ])('type filter: %s', async (_name, params, types) => {
    const stored = await storedEvents();
    const events = await exportOf(params);
    expect(events).toEqual(stored.filter((e) => types.includes(e.type)));
    expect(events.length).toBe(stored.filter((e) => types.includes(e.type)).length);
  });

  it('track and release filters', async () => {
    const stored = await storedEvents();
    expect(await exportOf({ channel: 'development' })).toEqual(stored.filter((e) => e.channel === 'development'));
    expect(await exportOf({ platform: 'ios' })).toEqual(stored.filter((e) => e.platform === 'ios'));
    expect(await exportOf({ ...track })).toEqual(stored.filter((e) => e.runtimeVersion === track.runtimeVersion));
    expect(await exportOf({ releaseId: bypassRelease })).toHaveLength(2);
    expect(await exportOf({ releaseId: randomUUID() })).toEqual([]);
  });

  it('since picks events at or after a time (ISO 8601, any offset, or a date)', async () => {
    const stored = await storedEvents();
    const later = stored.filter((e) => e.createdAt >= startOfSecondHour);
    expect(later.map((e) => e.type)).toEqual(['release.rolled_back', 'release.created']);
    expect(await exportOf({ since: startOfSecondHour })).toEqual(later);
    // The same instant written with an offset.
    const offset = new Date(Date.parse(startOfSecondHour) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    expect(await exportOf({ since: offset })).toEqual(later);
    expect(await exportOf({ since: '2026-04-01' })).toEqual(stored);
    expect(await exportOf({ since: '2026-04-02' })).toEqual([]);
    expect(await exportOf({ since: startOfSecondHour, type: 'release.created' })).toEqual(later.slice(1));
  });

  it('after resumes behind a seq; limit bounds a page', async () => {
    const stored = await storedEvents();
    const first = await exportOf({ limit: 2 });
    expect(first).toEqual(stored.slice(0, 2));
    const rest = await exportOf({ after: first[1]!.seq });
    expect(rest).toEqual(stored.slice(2));
    expect(await exportOf({ after: stored.at(-1)!.seq })).toEqual([]);
    expect(await exportOf({ after: first[1]!.seq, since: startOfSecondHour, limit: 1 })).toEqual([
      stored.find((e) => e.type === 'release.rolled_back'),
    ]);
  });

  it(`streams more than one batch (${AUDIT_EXPORT_BATCH} events a query) in order, and stops at limit`, async () => {
    const count = AUDIT_EXPORT_BATCH * 2 + 234;
    const rows = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      type: 'test.bulk',
      actor: 'test',
      channel: null,
      platform: null,
      runtime_version: null,
      release_id: null,
      details: JSON.stringify({ i, padding: 'x'.repeat(200) }),
      created_at: clock + i,
    }));
    for (let start = 0; start < rows.length; start += 200) {
      await server.app.database.db
        .insertInto('audit_events')
        .values(rows.slice(start, start + 200))
        .execute();
    }
    const all = await exportOf({ type: 'test.bulk', limit: AUDIT_EXPORT_MAX_LIMIT });
    expect(all.map((e) => e.details.i)).toEqual(rows.map((_, i) => i));
    const seqs = all.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(count);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    // A page that ends inside the second batch, then the rest from its last seq.
    const page = await exportOf({ type: 'test.bulk', limit: AUDIT_EXPORT_BATCH + 100 });
    expect(page).toEqual(all.slice(0, AUDIT_EXPORT_BATCH + 100));
    const next = await exportOf({ type: 'test.bulk', after: page.at(-1)!.seq, limit: AUDIT_EXPORT_MAX_LIMIT });
    expect([...page, ...next]).toEqual(all);
    // The default limit is 1000.
    expect(await exportOf({ type: 'test.bulk' })).toHaveLength(1000);
  });

  it('a poller resuming with after sees every event exactly once while releases are published', async () => {
    const before = (await storedEvents()).at(-1)!.seq;
    const seen: AuditEvent[] = [];
    let last = before;
    const poll = async () => {
      const events = await exportOf({ after: last, limit: 3 });
      seen.push(...events);
      if (events.length > 0) last = events.at(-1)!.seq;
      return events.length;
    };
    let publishing = true;
    const publishes = (async () => {
      try {
        await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            publish({ channel: 'development', platform: 'ios', runtimeVersion: `4.1.${i}` }),
          ),
        );
      } finally {
        publishing = false;
      }
    })();
    while (publishing) await poll();
    await publishes;
    while ((await poll()) > 0) {}
    const stored = (await storedEvents()).filter((e) => e.seq > before);
    expect(stored).toHaveLength(6);
    expect(seen).toEqual(stored);
  });

  it.each([
    ['missing', undefined],
    ['wrong', 'Bearer wrong-token-wrong-token'],
  ])('%s token → 401', async (_name, authorization) => {
    const response = await fetch(`${server.url}/api/audit-events`, {
      headers: authorization ? { authorization } : {},
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await response.json()).error.code).toBe('UNAUTHORIZED');
  });

  it('a stranger with a malformed query gets 401, not a validation report', async () => {
    const response = await fetch(`${server.url}${target({ limit: 0, type: 'NOPE' })}`);
    expect(response.status).toBe(401);
  });

  describe('an invalid query → 400 VALIDATION_FAILED as JSON, naming the parameter', () => {
    it.each([
      ['limit 0', { limit: 0 }, 'limit'],
      ['limit above the maximum', { limit: AUDIT_EXPORT_MAX_LIMIT + 1 }, 'limit'],
      ['limit not a number', { limit: 'ten' }, 'limit'],
      ['since not a time', { since: 'yesterday' }, 'since'],
      ['since without an offset', { since: '2026-04-01T08:00:00' }, 'since'],
      ['since not a calendar date', { since: '2026-13-01' }, 'since'],
      ['after negative', { after: '-1' }, 'after'],
      ['after fractional', { after: '1.5' }, 'after'],
      ['after not a number', { after: 'abc' }, 'after'],
      ['type not a type', { type: 'Release Created' }, 'type'],
      ['type empty', { type: '' }, 'type'],
      ['type with a control character', { type: 'release.\u0000created' }, 'type'],
      ['too many types', { type: Array.from({ length: 33 }, (_, i) => `t${i}`).join(',') }, 'type'],
      ['channel unknown', { channel: 'staging' }, 'channel'],
      ['platform unknown', { platform: 'web' }, 'platform'],
      ['releaseId not an id', { releaseId: 'abc' }, 'releaseId'],
      ['unknown parameter', { cursor: 'x' }, ''],
    ])('%s', async (_name, params, field) => {
      const response = await server.authed(target(params as Params));
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = await response.json();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      if (field) {
        expect(body.error.details.fields.map((f: { path: string }) => f.path.split('.')[1])).toContain(field);
      }
    });
  });
});

/**
 * PostgreSQL draws a seq when a row is inserted but shows the row only at commit. An export must
 * not answer a later seq while an earlier one can still appear, or a poller resuming behind the
 * later one would never see it.
 */
describeEachEngine('GET /api/audit-events and transactions still in flight', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => server?.close());

  const event = (type: string) => ({
    id: randomUUID(),
    type,
    actor: 'test',
    details: '{}',
    created_at: Date.now(),
  });

  it.runIf(engine === 'postgres')('waits for an earlier insert to commit, so a poller never skips it', async () => {
    const db = server.app.database.db;
    const client = new pg.Client({ connectionString: server.database.location });
    const watcher = new pg.Client({ connectionString: server.database.location });
    await client.connect();
    await watcher.connect();
    try {
      await client.query('begin');
      const held = await client.query<{ seq: string }>(
        `insert into audit_events (id, type, actor, details, created_at) values ($1, 'test.late', 'test', '{}', $2) returning seq`,
        [randomUUID(), Date.now()],
      );
      const lateSeq = Number(held.rows[0]!.seq);
      await db.insertInto('audit_events').values(event('test.early')).execute();

      let answered = false;
      const exporting = server
        .authed(target({ after: lateSeq - 1 }))
        .then(async (r) => parseNdjson(await r.text()))
        .finally(() => {
          answered = true;
        });
      // The export waits for the open transaction's lock; wait for it to be waiting, not for a time.
      // (An export that did not wait answers first, without the late event, and fails below.)
      while (!answered) {
        // Another connection: inside a transaction, pg_stat_activity keeps answering its first snapshot.
        const { rows } = await watcher.query(
          `select 1 from pg_stat_activity where wait_event_type = 'Lock' and query ilike 'lock table audit_events%'`,
        );
        if (rows.length > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await client.query('commit');
      const events = await exporting;
      expect(events.map((e) => [e.seq, e.type])).toEqual([
        [lateSeq, 'test.late'],
        [lateSeq + 1, 'test.early'],
      ]);
    } finally {
      await client.end();
      await watcher.end();
    }
  });

  it.runIf(engine === 'postgres')(
    'an insert that stays in flight longer than the export waits: AuditBusy (503 UNAVAILABLE), nothing answered',
    async () => {
      const client = new pg.Client({ connectionString: server.database.location });
      await client.connect();
      try {
        await client.query('begin');
        await client.query(
          `insert into audit_events (id, type, actor, details, created_at) values ($1, 'test.stuck', 'test', '{}', $2)`,
          [randomUUID(), Date.now()],
        );
        const exporter = new AuditExport(server.app.database, { lockTimeoutMs: 50 });
        const refused = await exporter.open('default', { order: 'oldest', limit: 10 }).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(AuditBusy);
        expect(refused).toMatchObject({ kind: 'unavailable', code: 'UNAVAILABLE', retryAfterSeconds: 1 });
      } finally {
        await client.query('rollback');
        await client.end();
      }
      // The writer gone, the same export answers.
      await expect(
        new AuditExport(server.app.database, { lockTimeoutMs: 50 }).open('default', { order: 'oldest', limit: 10 }),
      ).resolves.toBeDefined();
    },
  );

  it('a rolled-back insert leaves a hole in seq that the export simply passes', async () => {
    const db = server.app.database.db;
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('audit_events').values(event('test.rolled_back')).execute();
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await db.insertInto('audit_events').values(event('test.after_hole')).execute();
    const response = await server.authed(target({ type: 'test.rolled_back,test.after_hole' }));
    expect(parseNdjson(await response.text()).map((e) => e.type)).toEqual(['test.after_hole']);
  });
});
