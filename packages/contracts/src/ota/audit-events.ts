import { z } from 'zod';
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
 * GET /api/audit-events. `after` is exclusive and is how a poller resumes (the `seq` of the last
 * line it read); `since` (ISO 8601, inclusive) picks events by time. Both may be combined.
 */
export const AuditExportQuery = z
  .object({
    since: z.union([z.iso.datetime({ offset: true }), z.iso.date()]).optional(),
    after: Seq.optional(),
    type: TypeList.optional(),
    channel: Channel.optional(),
    platform: Platform.optional(),
    runtimeVersion: RuntimeVersion.optional(),
    releaseId: z.uuid().optional(),
    limit: z.coerce
      .number()
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(AUDIT_EXPORT_MAX_LIMIT, `limit must be at most ${AUDIT_EXPORT_MAX_LIMIT}`)
      .default(AUDIT_EXPORT_DEFAULT_LIMIT),
  })
  .strict();
export type AuditExportQuery = z.infer<typeof AuditExportQuery>;
export type AuditExportQueryInput = z.input<typeof AuditExportQuery>;

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
