import {
  AUDIT_EXPORT_DEFAULT_LIMIT,
  AUDIT_PAGE_DEFAULT_LIMIT,
  type AuditEvent,
  type AuditEventPage,
  type AuditExportQuery,
  auditRangeEnd,
} from '@ferry/contracts';
import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import { DomainError } from '../errors/domain-error.js';
import type { Database } from '../storage/database.js';
import { type AuditEventsTable, type DatabaseSchema, parseJson } from '../storage/schema.js';
import { decodeCursor, encodeCursor } from './release-listing.js';

/** Events read per query while a long export streams: small enough to keep memory flat. */
export const AUDIT_EXPORT_BATCH = 500;

/** How long an export waits for writers of audit events to finish before it gives up (PostgreSQL). */
const HORIZON_LOCK_TIMEOUT_MS = 5000;

/**
 * SQLSTATEs of a wait for the table that ended: lock_timeout ran out, or PostgreSQL broke a deadlock
 * by cancelling the export (a writer waiting behind it for something another writer holds).
 */
const GAVE_UP_WAITING = new Set(['55P03', '40P01']);

/** Writers held the audit table for longer than the export waits: it may be asked again. */
export class AuditBusy extends DomainError {
  override name = 'AuditBusy';
  constructor() {
    super(
      'unavailable',
      'UNAVAILABLE',
      'Audit events are being written right now; ask again shortly.',
      { retryable: true },
      1,
    );
  }
}

export const toAuditEvent = (row: Selectable<AuditEventsTable>): AuditEvent => ({
  id: row.id,
  seq: Number(row.seq),
  type: row.type,
  actor: row.actor,
  channel: row.channel,
  platform: row.platform,
  runtimeVersion: row.runtime_version,
  releaseId: row.release_id,
  details: parseJson<Record<string, unknown>>(row.details),
  createdAt: new Date(Number(row.created_at)).toISOString(),
});

/** The first batch is read before anything is sent, so a failure there is still an error answer. */
export interface OpenedExport {
  first: AuditEvent[];
  /** The following batches, read as the consumer asks for them. */
  rest: AsyncIterable<AuditEvent[]>;
}

/**
 * GET /api/audit-events: events oldest first by `seq`, read in batches of AUDIT_EXPORT_BATCH so an
 * export of any size streams in constant memory.
 *
 * A poller resumes with `after=<last seq>` and must never miss an event. On PostgreSQL a sequence
 * number is taken when a row is inserted but becomes visible only at commit, so a transaction that
 * commits late could show an event below a seq a poller already passed. Each export therefore stops
 * at a horizon: the highest seq once no transaction that writes audit events is in flight (a SHARE
 * lock on the table waits for them, held only for that one read). Every seq up to the horizon is then
 * committed or gone for good, and every later one is above it. SQLite needs no horizon: its writers
 * are serialized (BEGIN IMMEDIATE), so seq order is commit order.
 */
export class AuditExport {
  private readonly lockTimeoutMs: number;
  constructor(
    private readonly database: Database,
    options: { lockTimeoutMs?: number } = {},
  ) {
    this.lockTimeoutMs = options.lockTimeoutMs ?? HORIZON_LOCK_TIMEOUT_MS;
  }

  /** The app's events, oldest first (the NDJSON export). */
  async open(app: string, asked: AuditExportQuery): Promise<OpenedExport> {
    const query = { ...asked, app, limit: asked.limit ?? AUDIT_EXPORT_DEFAULT_LIMIT };
    const horizon = await this.horizon();
    if (horizon === undefined) return { first: [], rest: empty() };
    let start = query.after ?? 0;
    const from = query.from ?? query.since;
    if (from !== undefined) {
      // created_at is the writing instance's clock, so it does not follow seq exactly: start at the
      // first event at or after `from` and keep the time condition on every batch.
      const first = await this.database.db
        .selectFrom('audit_events')
        .select((eb) => eb.fn.min('seq').as('seq'))
        .where('created_at', '>=', Date.parse(from))
        .where('seq', '<=', horizon)
        .where('app_id', '=', app)
        .executeTakeFirst();
      if (first?.seq === null || first?.seq === undefined) return { first: [], rest: empty() };
      start = Math.max(start, Number(first.seq) - 1);
    }
    const first = await this.batch(query, start, horizon, Math.min(AUDIT_EXPORT_BATCH, query.limit));
    return { first, rest: this.remaining(query, horizon, first) };
  }

  /**
   * One newest-first page (order=newest): keyset on (created_at, seq), the order every page and the
   * indexes of migration 023 share. An event written after the first page is newer than any cursor,
   * so paging on never repeats or skips one of the events that were there when it began.
   */
  async page(app: string, query: AuditExportQuery): Promise<AuditEventPage> {
    const limit = query.limit ?? AUDIT_PAGE_DEFAULT_LIMIT;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    let select = filtered(this.database.db.selectFrom('audit_events').selectAll(), { ...query, app });
    if (after) {
      select = select.where((eb) => eb(eb.refTuple('created_at', 'seq'), '<', eb.tuple(after.createdAt, after.seq)));
    }
    // One more than a page tells whether another page follows.
    const rows = await select
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      events: page.map(toAuditEvent),
      nextCursor:
        rows.length > limit && last
          ? encodeCursor({ createdAt: Number(last.created_at), seq: Number(last.seq) })
          : null,
    };
  }

  private async *remaining(
    query: AppAuditQuery & { limit: number },
    horizon: number,
    first: AuditEvent[],
  ): AsyncIterable<AuditEvent[]> {
    let sent = first.length;
    let last = first.at(-1)?.seq;
    let full = first.length === Math.min(AUDIT_EXPORT_BATCH, query.limit);
    while (full && last !== undefined && sent < query.limit) {
      const size = Math.min(AUDIT_EXPORT_BATCH, query.limit - sent);
      const events = await this.batch(query, last, horizon, size);
      if (events.length > 0) yield events;
      sent += events.length;
      last = events.at(-1)?.seq;
      full = events.length === size;
    }
  }

  private async batch(query: AppAuditQuery, after: number, horizon: number, size: number): Promise<AuditEvent[]> {
    const select = filtered(this.database.db.selectFrom('audit_events').selectAll(), query)
      .where('seq', '>', after)
      .where('seq', '<=', horizon);
    const rows = await select.orderBy('seq', 'asc').limit(size).execute();
    return rows.map(toAuditEvent);
  }

  /** The highest seq below which nothing can still appear; undefined when there are no events. */
  private async horizon(): Promise<number | undefined> {
    const { db, engine } = this.database;
    const read = async (executor: typeof db) => {
      const row = await executor
        .selectFrom('audit_events')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .executeTakeFirst();
      return row?.seq === null || row?.seq === undefined ? undefined : Number(row.seq);
    };
    if (engine !== 'postgres') return read(db);
    try {
      return await db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = ${sql.lit(Math.max(1, Math.round(this.lockTimeoutMs)))}`.execute(trx);
        // SHARE conflicts with the ROW EXCLUSIVE lock every INSERT holds until its transaction ends,
        // and an INSERT takes it before it draws its seq. Released at commit, right after the read.
        await sql`lock table audit_events in share mode`.execute(trx);
        return read(trx);
      });
    } catch (error) {
      if (GAVE_UP_WAITING.has(String((error as { code?: unknown }).code))) throw new AuditBusy();
      throw error;
    }
  }
}

async function* empty(): AsyncIterable<AuditEvent[]> {}

/** A query of one app's audit log: another app's events are never read. */
type AppAuditQuery = AuditExportQuery & { app: string };

/** The filters both orders take, combined (AND), within the app; several types are any of them. */
function filtered<Q extends SelectQueryBuilder<DatabaseSchema, 'audit_events', Selectable<AuditEventsTable>>>(
  select: Q,
  query: AppAuditQuery,
): Q {
  let narrowed = (select as SelectQueryBuilder<DatabaseSchema, 'audit_events', Selectable<AuditEventsTable>>).where(
    'app_id',
    '=',
    query.app,
  );
  const from = query.from ?? query.since;
  if (from !== undefined) narrowed = narrowed.where('created_at', '>=', Date.parse(from));
  if (query.to !== undefined) narrowed = narrowed.where('created_at', '<', auditRangeEnd(query.to));
  if (query.type) narrowed = narrowed.where('type', 'in', query.type);
  if (query.actor !== undefined) narrowed = narrowed.where('actor', '=', query.actor);
  if (query.channel) narrowed = narrowed.where('channel', '=', query.channel);
  if (query.platform) narrowed = narrowed.where('platform', '=', query.platform);
  if (query.runtimeVersion) narrowed = narrowed.where('runtime_version', '=', query.runtimeVersion);
  if (query.releaseId) narrowed = narrowed.where('release_id', '=', query.releaseId);
  return narrowed as Q;
}
