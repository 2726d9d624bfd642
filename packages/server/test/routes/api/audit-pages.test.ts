import { randomUUID } from 'node:crypto';
import { type AuditEvent, AuditEventPage } from '@ferry/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../support/engines.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/**
 * GET /api/audit-events?order=newest over 20 000 events, on both engines: the first page holds the
 * newest, pages neither overlap nor skip (also while events are written), and the filters combine.
 * The events are written straight to the table, in an order that does not follow their times (as
 * several instances' clocks write them), with many at the same millisecond.
 */
const COUNT = 20_000;
const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const TYPES = ['release.created', 'rollout.changed', 'guard.bypassed', 'directive.created'];
const ACTORS = ['ci', 'operator:alice', 'operator:bob'];

interface Fixture {
  id: string;
  type: string;
  actor: string;
  channel: string;
  platform: string;
  runtimeVersion: string;
  createdAt: number;
  /** Its place in the insertion order: what seq follows. */
  order: number;
}

/** A deterministic shuffle (insertion order unlike time order). */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 42;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const events: Fixture[] = shuffled(
  Array.from({ length: COUNT }, (_, i) => ({
    id: randomUUID(),
    type: TYPES[i % TYPES.length]!,
    actor: ACTORS[i % ACTORS.length]!,
    channel: i % 5 === 0 ? 'development' : 'production',
    platform: i % 2 === 0 ? 'ios' : 'android',
    runtimeVersion: (i >> 1) % 2 === 0 ? '1.0.0(1)' : '2.0.0(2)',
    // Seven events per second, so ties on created_at are everywhere.
    createdAt: T0 + Math.floor(i / 7) * 1000,
    order: 0,
  })),
).map((event, order) => ({ ...event, order }));

/** Newest first, as the server orders: created_at, then insertion (seq). */
const newestFirst = (a: Fixture, b: Fixture) => b.createdAt - a.createdAt || b.order - a.order;

describeEachEngine('audit log newest first, a page at a time', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { env: { RELEASE_RATE_LIMIT_PER_MINUTE: '100000' } });
    const { db } = server.app.database;
    for (let start = 0; start < COUNT; start += 1000) {
      await db
        .insertInto('audit_events')
        .values(
          events.slice(start, start + 1000).map((event) => ({
            id: event.id,
            type: event.type,
            actor: event.actor,
            channel: event.channel,
            platform: event.platform,
            runtime_version: event.runtimeVersion,
            release_id: null,
            details: JSON.stringify({ order: event.order }),
            created_at: event.createdAt,
          })),
        )
        .execute();
    }
  });
  afterAll(async () => server?.close());

  const page = async (query: Record<string, string>): Promise<AuditEventPage> => {
    const response = await server.authed(`/api/audit-events?${new URLSearchParams({ order: 'newest', ...query })}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    return AuditEventPage.parse(await response.json());
  };

  /** Every page from the first, following nextCursor; `between` runs after each page. */
  const walk = async (query: Record<string, string>, between?: () => Promise<void>): Promise<AuditEvent[]> => {
    const seen: AuditEvent[] = [];
    let cursor: string | null = null;
    do {
      const next = await page({ ...query, ...(cursor ? { cursor } : {}) });
      seen.push(...next.events);
      cursor = next.nextCursor;
      await between?.();
    } while (cursor);
    return seen;
  };

  it('the first page holds the newest 50', async () => {
    const first = await page({});
    const newest = [...events].sort(newestFirst).slice(0, 50);
    expect(first.events.map((event) => event.id)).toEqual(newest.map((event) => event.id));
    expect(first.nextCursor).not.toBeNull();
  });

  it('500 at a time, every event once, in order, while others are written', async () => {
    const written: string[] = [];
    const seen = await walk({ limit: '500' }, async () => {
      // Written between two pages: newer than any cursor, so on no later page.
      const id = randomUUID();
      written.push(id);
      await server.app.database.db
        .insertInto('audit_events')
        .values({ id, type: 'release.created', actor: 'ci', details: '{}', created_at: Date.now() })
        .execute();
    });
    expect(seen).toHaveLength(COUNT);
    expect(new Set(seen.map((event) => event.id)).size).toBe(COUNT);
    expect(seen.map((event) => event.id)).toEqual([...events].sort(newestFirst).map((event) => event.id));
    expect(seen.some((event) => written.includes(event.id))).toBe(false);
    // And the next reader's first page starts with them.
    const fresh = await page({ limit: String(written.length) });
    expect(fresh.events.map((event) => event.id).sort()).toEqual([...written].sort());
  });

  it('filters combine: actor, several types, a track and a time range', async () => {
    const from = new Date(T0 + 500 * 1000).toISOString();
    const to = new Date(T0 + 2500 * 1000).toISOString();
    const query = {
      actor: 'operator:alice',
      type: 'release.created,guard.bypassed',
      channel: 'production',
      platform: 'ios',
      runtimeVersion: '1.0.0(1)',
      from,
      to,
      limit: '37',
    };
    const expected = events
      .filter(
        (event) =>
          event.actor === 'operator:alice' &&
          (event.type === 'release.created' || event.type === 'guard.bypassed') &&
          event.channel === 'production' &&
          event.platform === 'ios' &&
          event.runtimeVersion === '1.0.0(1)' &&
          event.createdAt >= Date.parse(from) &&
          event.createdAt < Date.parse(to),
      )
      .sort(newestFirst);
    expect(expected.length).toBeGreaterThan(37 * 2);
    const seen = await walk(query);
    expect(seen.map((event) => event.id)).toEqual(expected.map((event) => event.id));

    // A date alone as `to` takes its whole day (UTC); `from` is inclusive.
    const day = new Date(T0).toISOString().slice(0, 10);
    const ofTheDay = events.filter((event) => event.createdAt < T0 + 86_400_000 && event.actor === 'ci').length;
    expect((await walk({ actor: 'ci', from: day, to: day, limit: '500' })).length).toBe(ofTheDay);
  });

  it('refuses what it cannot page', async () => {
    const refused = async (query: Record<string, string>, path: string) => {
      const response = await server.authed(`/api/audit-events?${new URLSearchParams(query)}`);
      expect(response.status).toBe(400);
      const { error } = await response.json();
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details.fields.map((field: { path: string }) => field.path)).toContain(path);
    };
    await refused({ order: 'newest', limit: '501' }, 'querystring.limit');
    await refused({ order: 'newest', after: '5' }, 'querystring.after');
    await refused({ cursor: 'abc' }, 'querystring.cursor');
    await refused({ order: 'newest', cursor: 'not*a*cursor' }, 'querystring.cursor');
    await refused({ order: 'newest', cursor: Buffer.from('x.y').toString('base64url') }, 'querystring.cursor');
    await refused({ order: 'sideways' }, 'querystring.order');
    await refused({ since: '2026-01-01', from: '2026-01-01' }, 'querystring.since');
    // The default page is 50 and the largest 500.
    expect((await page({})).events).toHaveLength(50);
    expect((await page({ limit: '500' })).events).toHaveLength(500);
  });
});
