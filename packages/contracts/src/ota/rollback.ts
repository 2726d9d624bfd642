import { z } from 'zod';
import { lineText } from '../text.js';
import { Channel } from './channel.js';
import { Platform } from './platform.js';
import { ReleaseSummary } from './release.js';
import { checkTarget, GroupId } from './release-group.js';
import { RuntimeVersion } from './runtime-version.js';
import type { TrackKey } from './track.js';

/** One line: recorded in the audit event and the new record's metadata. */
const who = lineText().min(1).max(255);

/**
 * POST /api/updates/rollback. Republishes an earlier release as a new record (the newest record is
 * the active one), on one track or on every platform of a release group:
 * - a track (channel, platform, runtimeVersion): `to` names the release to restore; without it, the
 *   release just before the newest;
 * - a group (groupId): every release of the group must still be the newest of its track, and each
 *   track goes back to the release just before it, or to the release of `toGroupId` of the same
 *   platform. All platforms or none, in one transaction.
 */
export const RollbackRequest = z
  .object({
    channel: Channel.optional(),
    platform: Platform.optional(),
    runtimeVersion: RuntimeVersion.optional(),
    to: z.uuid().optional(),
    groupId: GroupId.optional(),
    toGroupId: GroupId.optional(),
    /** Who asked for the rollback, recorded in the audit event and the new record's metadata. */
    actor: who.optional(),
    runId: who.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    checkTarget(body, ctx, ['toGroupId']);
    if (body.groupId !== undefined && body.to !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'to names a release of one track; with groupId use toGroupId',
      });
    }
  });
export type RollbackRequest = z.infer<typeof RollbackRequest>;

/** A rollback of one track. */
export type TrackRollbackRequest = TrackKey & Pick<RollbackRequest, 'to' | 'actor' | 'runId'>;
/** A rollback of every platform of a release group. */
export type GroupRollbackRequest = { groupId: string } & Pick<RollbackRequest, 'toGroupId' | 'actor' | 'runId'>;

/** Which of the two a checked rollback body is. */
export function rollbackTarget(
  body: RollbackRequest,
): { kind: 'track'; request: TrackRollbackRequest } | { kind: 'group'; request: GroupRollbackRequest } {
  const { channel, platform, runtimeVersion, to, groupId, toGroupId, actor, runId } = body;
  const who = { ...(actor === undefined ? {} : { actor }), ...(runId === undefined ? {} : { runId }) };
  if (groupId !== undefined) {
    return { kind: 'group', request: { groupId, ...(toGroupId === undefined ? {} : { toGroupId }), ...who } };
  }
  if (channel === undefined || platform === undefined || runtimeVersion === undefined) {
    throw new TypeError('a rollback body names a track or a group (RollbackRequest checks it)');
  }
  return {
    kind: 'track',
    request: { channel, platform, runtimeVersion, ...(to === undefined ? {} : { to }), ...who },
  };
}

/** 201 for a track: the new record, the release it copies, and the release that was active until now. */
export const TrackRollbackResponse = z.object({
  release: ReleaseSummary,
  restored: ReleaseSummary,
  replaced: ReleaseSummary,
});
export type TrackRollbackResponse = z.infer<typeof TrackRollbackResponse>;

/**
 * 201 for a group: per platform, as for a track. The new records form a release group of their own
 * (`groupId`); `rolledBackGroupId` is the group that was rolled back.
 */
export const GroupRollbackResponse = z.object({
  rolledBackGroupId: GroupId,
  groupId: GroupId,
  rollbacks: z.array(TrackRollbackResponse.extend({ platform: Platform })),
});
export type GroupRollbackResponse = z.infer<typeof GroupRollbackResponse>;

export const RollbackResponse = z.union([TrackRollbackResponse, GroupRollbackResponse]);
export type RollbackResponse = z.infer<typeof RollbackResponse>;
