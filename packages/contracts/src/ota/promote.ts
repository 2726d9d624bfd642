import { z } from 'zod';
import { lineText } from '../text.js';
import { Channel } from './channel.js';
import { ReleaseSummary } from './release.js';
import { GroupId } from './release-group.js';
import { RolloutRequest } from './rollout.js';

const who = lineText().min(1).max(255);

/**
 * POST /api/updates/promote: republishes a release, or every release of a release group, to
 * another channel (development → production). Each copy is a new release of the target channel's
 * track (a new id, signed as a publish is), with the same assets, app config, update policy,
 * fingerprint and message, through the native-change guard exactly as a publish to that channel.
 * A group promotes as one: every platform, or none.
 */
export const PromoteRequest = z
  .object({
    releaseId: z.uuid().optional(),
    groupId: GroupId.optional(),
    toChannel: Channel,
    /** A share of devices on the target channel; without it every device gets the copy at once. */
    rollout: RolloutRequest.optional(),
    /** As in a publish: go past the guard, audited as a bypass. */
    allowNativeChange: z.boolean().optional(),
    actor: who.optional(),
    runId: who.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.releaseId === undefined) === (body.groupId === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [body.releaseId === undefined ? 'releaseId' : 'groupId'],
        message: 'give either releaseId (one release) or groupId (every release of a release group)',
      });
    }
  });
export type PromoteRequest = z.infer<typeof PromoteRequest>;
export type PromoteRequestInput = z.input<typeof PromoteRequest>;

/** 201: the new releases on the target channel (one group of their own), each with its source. */
export const PromoteResponse = z.object({
  groupId: GroupId,
  sourceGroupId: GroupId.nullable(),
  promotions: z.array(z.object({ release: ReleaseSummary, source: ReleaseSummary })),
});
export type PromoteResponse = z.infer<typeof PromoteResponse>;
