import type { OperatorRole } from './operator-access.js';

/**
 * Everything the release-control API lets someone do, in the words the access rule uses. The
 * server's routes name one action each, and the console shows only the controls whose action the
 * signed-in operator may perform; `mayPerform` alone decides who may, for both.
 */
export const OPERATOR_ACTIONS = [
  /** Listings, rollouts, audit log, console reads (tracks, history, release detail, live events). */
  'read',
  /** A rollout's share, complete, revert. */
  'rollout.change',
  /** Restore an earlier release of a track. */
  'rollback',
  /** Roll a track back to the embedded bundle (a directive). */
  'directive.create',
  /** Register a release and upload its assets. */
  'publish',
  /** Delete unreferenced asset objects (`ferry gc`). */
  'gc',
  /** Create, list and revoke operator tokens. */
  'tokens.manage',
  /** Sign in to the release console. */
  'console.sign-in',
] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

/** Who is asking: an operator role, or the CI release token (OTA_RELEASE_TOKEN). */
export type Principal = OperatorRole | 'release-token';

const GRANTS: Record<Principal, ReadonlySet<OperatorAction>> = {
  viewer: new Set(['read', 'console.sign-in']),
  releaser: new Set(['read', 'console.sign-in', 'rollout.change', 'rollback', 'directive.create']),
  // GC deletes objects for good: an admin's (and CI's) maintenance, not part of handling a release.
  admin: new Set(['read', 'console.sign-in', 'rollout.change', 'rollback', 'directive.create', 'gc', 'tokens.manage']),
  // The release token keeps everything it could do before operator roles existed (CI and the CLI),
  // but it is a machine credential: it neither signs in to the console nor manages people's tokens.
  'release-token': new Set(['read', 'rollout.change', 'rollback', 'directive.create', 'publish', 'gc']),
};

/** The one access rule: may this principal perform this action? */
export function mayPerform(principal: Principal, action: OperatorAction): boolean {
  return GRANTS[principal].has(action);
}
