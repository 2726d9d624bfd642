import { z } from 'zod';
import { lineText } from '../text.js';
import { Channel } from './channel.js';
import { Platform } from './platform.js';
import { RuntimeVersion } from './runtime-version.js';

export const AUDIT_EXPORT_DEFAULT_LIMIT = 1000;
export const AUDIT_EXPORT_MAX_LIMIT = 10_000;
/** More types than any filter needs; bounds the query the server builds. */
export const AUDIT_EXPORT_MAX_TYPES = 32;

/** An audit event type: dotted lowercase words, e.g. `release.created`, `guard.bypassed`. */
export const AuditEventType = z
  .string()
  .max(64, 'a type is at most 64 characters')
  .regex(/^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*$/, 'a type is dotted lowercase words, e.g. release.created');

/** `type=a&type=b`, `type=a,b` or both: one list. */
const TypeList = z
  .union([z.string(), z.array(z.string())])
  .transform((raw) =>
    (Array.isArray(raw) ? raw : [raw])
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter((value) => value !== ''),
  )
  .pipe(
    z
      .array(AuditEventType)
      .min(1, 'type names at least one event type')
      .max(AUDIT_EXPORT_MAX_TYPES, `at most ${AUDIT_EXPORT_MAX_TYPES} types`),
  );

/** A position in the export: the `seq` of the last event a reader has. */
const Seq = z
  .string()
  .regex(/^\d{1,15}$/, 'after must be the seq of an event (a whole number)')
  .transform(Number);

/**
 * Free text in a query (the actor filter): one line, and no U+FFFD, which is what decoding turns
 * bytes that are not UTF-8 (a lone surrogate sent percent-encoded, say) into: the text asked for is
 * not the text received.
 */
const QueryText = lineText()
  .min(1)
  .max(255)
  .refine((value) => !value.includes('\uFFFD'), { message: 'must be UTF-8 text (no U+FFFD)' });

/** A moment of the time range: an ISO 8601 time, or a date (its midnight, UTC). */
const Moment = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

/** The newest-first pages (order=newest): 50 events by default, at most 500. */
export const AUDIT_PAGE_DEFAULT_LIMIT = 50;
export const AUDIT_PAGE_MAX_LIMIT = 500;

/** Where the next newest-first page starts: a nextCursor value, opaque to clients. */
export const AuditCursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'cursor must be a nextCursor value from an earlier answer');

export const AUDIT_ORDERS = ['oldest', 'newest'] as const;

/**
 * GET /api/audit-events, in one of two orders:
 * - `oldest` (the default): the export, NDJSON oldest first by seq. `after` is exclusive and is how
 *   a poller resumes (the `seq` of the last line it read). `limit` 1000 by default, 10 000 at most.
 * - `newest`: JSON pages newest first (createdAt, then seq), `{ events, nextCursor }`; pass
 *   `nextCursor` back as `cursor` for the next, older page. `limit` 50 by default, 500 at most.
 * Both take the same filters, combined: type (several, comma-separated or repeated), actor (exact,
 * e.g. `operator:alice`), channel, platform, runtimeVersion, releaseId, and the time range `from`
 * (inclusive; `since` is its older name) and `to` (exclusive; a date alone means to the end of that
 * day, UTC).
 */
export const AuditExportQuery = z
  .object({
    order: z.enum(AUDIT_ORDERS).default('oldest'),
    since: Moment.optional(),
    from: Moment.optional(),
    to: Moment.optional(),
    after: Seq.optional(),
    cursor: AuditCursor.optional(),
    type: TypeList.optional(),
    actor: QueryText.optional(),
    channel: Channel.optional(),
    platform: Platform.optional(),
    runtimeVersion: RuntimeVersion.optional(),
    releaseId: z.uuid().optional(),
    limit: z.coerce
      .number()
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(AUDIT_EXPORT_MAX_LIMIT, `limit must be at most ${AUDIT_EXPORT_MAX_LIMIT}`)
      .optional(),
  })
  .strict()
  .superRefine((query, ctx) => {
    const newest = query.order === 'newest';
    if (newest && query.after !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['after'],
        message: 'after resumes the export (order=oldest); newest-first pages take cursor',
      });
    }
    if (!newest && query.cursor !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['cursor'], message: 'cursor pages newest first: add order=newest' });
    }
    if (newest && query.limit !== undefined && query.limit > AUDIT_PAGE_MAX_LIMIT) {
      ctx.addIssue({
        code: 'custom',
        path: ['limit'],
        message: `limit must be at most ${AUDIT_PAGE_MAX_LIMIT} with order=newest`,
      });
    }
    if (query.since !== undefined && query.from !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['since'], message: 'since is the older name of from: give one of them' });
    }
  });
export type AuditExportQuery = z.infer<typeof AuditExportQuery>;
export type AuditExportQueryInput = z.input<typeof AuditExportQuery>;

/** The first moment after a time range's end: `to` is exclusive, and a date alone takes its whole day. */
export function auditRangeEnd(to: string): number {
  const at = Date.parse(to);
  return /^\d{4}-\d{2}-\d{2}$/.test(to) ? at + 86_400_000 : at;
}

/**
 * One line of the export. `seq` orders events (oldest first) and is what `after` takes; the track
 * fields and releaseId are null for events that concern no track or release.
 */
export const AuditEvent = z.object({
  id: z.string(),
  seq: z.number().int().min(1),
  type: z.string(),
  actor: z.string(),
  channel: z.string().nullable(),
  platform: z.string().nullable(),
  runtimeVersion: z.string().nullable(),
  releaseId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

/** The media type of the export: one JSON object per line. */
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';

/** One newest-first page (order=newest): `nextCursor` is null on the last page. */
export const AuditEventPage = z.object({ events: z.array(AuditEvent), nextCursor: z.string().nullable() });
export type AuditEventPage = z.infer<typeof AuditEventPage>;
