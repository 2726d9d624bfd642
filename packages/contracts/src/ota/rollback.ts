import { z } from 'zod';
import { lineText } from '../text.js';
import { ReleaseSummary, Track } from './release.js';

/** One line: recorded in the audit event and the new record's metadata. */
const who = lineText().min(1).max(255);

/**
 * POST /api/updates/rollback. Republishes an earlier release of the track as a new record (the
 * newest record is the active one). `to` names the release to restore; without it, the release
 * just before the newest is used.
 */
export const RollbackRequest = Track.extend({
  to: z.uuid().optional(),
  /** Who asked for the rollback, recorded in the audit event and the new record's metadata. */
  actor: who.optional(),
  runId: who.optional(),
}).strict();
export type RollbackRequest = z.infer<typeof RollbackRequest>;

/** 201: the new record, the release it copies, and the release that was active until now. */
export const RollbackResponse = z.object({
  release: ReleaseSummary,
  restored: ReleaseSummary,
  replaced: ReleaseSummary,
});
export type RollbackResponse = z.infer<typeof RollbackResponse>;
