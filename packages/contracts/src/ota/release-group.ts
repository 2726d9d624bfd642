import { z } from 'zod';

/**
 * A release group: the releases one publish made of both platforms from one export (iOS and
 * Android each get a release of their own, on their own track, usually with different
 * runtimeVersions). Release control can act on a group as one: every platform, or none. A group
 * is on one channel and holds at most one release per platform.
 */
export const GroupId = z.uuid('a group id is a UUID');
export type GroupId = z.infer<typeof GroupId>;

/**
 * What a release-control request acts on: one track (channel, platform and runtimeVersion), or
 * every platform of a release group (groupId), never both. Refined on the body so a refusal names
 * the field, and so one JSON schema describes the body.
 */
export function checkTarget(
  body: { channel?: unknown; platform?: unknown; runtimeVersion?: unknown; groupId?: unknown },
  ctx: z.RefinementCtx,
  groupOnly: readonly string[] = [],
): void {
  const trackFields = (['channel', 'platform', 'runtimeVersion'] as const).filter((key) => body[key] !== undefined);
  if (body.groupId !== undefined) {
    for (const key of trackFields) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: 'give either groupId (every platform of a release group) or channel, platform and runtimeVersion',
      });
    }
    return;
  }
  for (const key of ['channel', 'platform', 'runtimeVersion'] as const) {
    if (body[key] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `${key} is required (with channel, platform and runtimeVersion naming a track), or give groupId`,
      });
    }
  }
  for (const key of groupOnly) {
    if ((body as Record<string, unknown>)[key] !== undefined) {
      ctx.addIssue({ code: 'custom', path: [key], message: `${key} goes with groupId` });
    }
  }
}
