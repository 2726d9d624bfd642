import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../storage/database.js';
import { toJson } from '../../storage/schema.js';
import type { Track } from '../app-track.js';

export interface GuardBlock {
  track: Track;
  actor: string;
  baselineReleaseId: string;
  baselineFingerprint: string;
  fingerprint: string;
}

/**
 * A publish the native-change guard refused, kept as a `guard.blocked` audit event: its own write,
 * after the refused publish's transaction rolled back, so the console can count blocks per track.
 * A failure to write is logged, never turned into an error for the publisher (who already has a 409).
 */
export const guardBlockAudit =
  (database: Database, log: FastifyBaseLogger, now: () => Date = () => new Date()) =>
  async (block: GuardBlock): Promise<void> => {
    await database.db
      .insertInto('audit_events')
      .values({
        id: randomUUID(),
        type: 'guard.blocked',
        actor: block.actor,
        channel: block.track.channel,
        platform: block.track.platform,
        runtime_version: block.track.runtimeVersion,
        release_id: null,
        details: toJson({
          baselineReleaseId: block.baselineReleaseId,
          baselineFingerprint: block.baselineFingerprint,
          fingerprint: block.fingerprint,
        }),
        created_at: now().getTime(),
        app_id: block.track.app,
      })
      .execute()
      .catch((error: unknown) => log.warn({ err: error, track: block.track }, 'could not audit a guard block'));
  };
