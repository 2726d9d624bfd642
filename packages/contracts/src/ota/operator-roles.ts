import { z } from 'zod';

/**
 * An operator token's role, defined once: viewer reads; releaser also changes rollouts, rolls back,
 * rolls back to embedded and promotes; admin also collects garbage and manages tokens (`mayPerform`
 * below grants each its actions).
 */
export const OPERATOR_ROLES = ['viewer', 'releaser', 'admin'] as const;
export const OperatorRoleSchema = z.enum(OPERATOR_ROLES);
export type OperatorRole = z.infer<typeof OperatorRoleSchema>;

/**
 * Everything the release-control API lets someone do, in the words the access rule uses. The
 * server's routes name one action each; `mayPerform` alone decides who may. The console reads the
 * same rule (the session lists the actions it allows) to hide what a role cannot do.
 */
export const OPERATOR_ACTIONS = [
  /** Listings, rollouts, audit log, console reads (tracks, history, release detail, live events). */
  'read',
  /** A rollout's share, complete, halt, resume, revert. */
  'rollout.change',
  /** Restore an earlier release of a track. */
  'rollback',
  /** Roll a track back to the embedded bundle (a directive). */
  'directive.create',
  /** Republish a release (or a release group) to another channel, through the guard. */
  'promote',
  /** Register a release and upload its assets. */
  'publish',
  /** Delete unreferenced asset objects (`ferry gc`). */
  'gc',
  /** Create, list and revoke operator tokens. */
  'tokens.manage',
  /** Sign in to the release console. */
  'console.sign-in',
  /** Create, archive and re-key apps (a server-wide admin's: judged with serverRoleOf, never one app's role). */
  'apps.manage',
] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

/** What each action is, as a refusal says it: "Only … may <words>". Words, not a second rule. */
export const OPERATOR_ACTION_WORDS: Readonly<Record<OperatorAction, string>> = {
  read: 'read releases, rollouts and the audit log',
  'rollout.change': 'change a rollout',
  rollback: 'roll a track back to an earlier release',
  'directive.create': 'roll a track back to its embedded bundle',
  promote: 'promote a release to another channel',
  publish: 'publish a release',
  gc: 'collect unreferenced assets',
  'tokens.manage': 'manage operator tokens',
  'console.sign-in': 'sign in to the console',
  'apps.manage': 'create, archive or re-key apps',
};

/** Who is asking: an operator role, or the CI release token (OTA_RELEASE_TOKEN). */
export type Principal = OperatorRole | 'release-token';

const GRANTS: Record<Principal, ReadonlySet<OperatorAction>> = {
  viewer: new Set(['read', 'console.sign-in']),
  releaser: new Set(['read', 'console.sign-in', 'rollout.change', 'rollback', 'directive.create', 'promote']),
  // GC deletes objects for good: an admin's (and CI's) maintenance, not part of handling a release.
  admin: new Set([
    'read',
    'console.sign-in',
    'rollout.change',
    'rollback',
    'directive.create',
    'promote',
    'gc',
    'tokens.manage',
    'apps.manage',
  ]),
  // The release token keeps everything it could do before operator roles existed (CI and the CLI),
  // and promotes as CI pipelines do (a guarded republish of reviewed content), but it is a machine
  // credential: it neither signs in to the console nor manages people's tokens.
  'release-token': new Set(['read', 'rollout.change', 'rollback', 'directive.create', 'promote', 'publish', 'gc']),
};

/** The one access rule: may this principal perform this action? */
export function mayPerform(principal: Principal, action: OperatorAction): boolean {
  return GRANTS[principal].has(action);
}

/** Every action the principal may perform, in the order of OPERATOR_ACTIONS (what a UI may offer). */
export const allowedActions = (principal: Principal): OperatorAction[] =>
  OPERATOR_ACTIONS.filter((action) => mayPerform(principal, action));

/** Who may perform an action, read off the same rule: the roles, lowest first, and the release token. */
export function whoMayPerform(action: OperatorAction): { roles: OperatorRole[]; releaseToken: boolean } {
  return {
    roles: OPERATOR_ROLES.filter((role) => mayPerform(role, action)),
    releaseToken: mayPerform('release-token', action),
  };
}

const withArticle = (role: OperatorRole) => `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;

/** `a`, `a or b`, `a, b or c`. */
const either = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

/**
 * A refusal in words, derived from the rule: who may do it, and who is asking. "Only a releaser or
 * an admin may change a rollout; you are signed in as a viewer."
 */
export function refusalMessage(principal: Principal, action: OperatorAction): string {
  const { roles, releaseToken } = whoMayPerform(action);
  const may =
    roles.length > 0
      ? either(roles.map(withArticle))
      : releaseToken
        ? 'the CI release token (OTA_RELEASE_TOKEN)'
        : 'nobody';
  const asking =
    principal === 'release-token'
      ? 'the CI release token may not (use an operator token with that role)'
      : `you are signed in as ${withArticle(principal)}`;
  return `Only ${may} may ${OPERATOR_ACTION_WORDS[action]}; ${asking}.`;
}
