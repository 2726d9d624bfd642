import { z } from 'zod';
import { AppSlug } from './apps.js';
import { OPERATOR_ACTIONS, type OperatorRole, OperatorRoleSchema } from './operator-roles.js';

/**
 * Operator access (issue 19): operator tokens with roles, and the release console's session.
 * Tokens are shown once, at creation; every other answer names them by id and name only.
 */

/** @deprecated The same as OperatorRole. */
export type OperatorRoleName = OperatorRole;

/** Every operator token starts with this, so a leaked one is easy to find in logs and to scan for. */
export const OPERATOR_TOKEN_PREFIX = 'ferry_op_';

/** The name an operator's actions are audited under (`operator:<name>`): one short printable word. */
export const OperatorName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/,
    'a name is 1 to 64 letters, digits and . _ @ + - (starting with a letter or digit), e.g. alice or ci-bot',
  );

/**
 * `app`: the one app the role is granted in; null for every app (an admin's only). Omitted: an
 * admin's token is server-wide, any other the default app's (what tokens were before apps).
 */
export const CreateOperatorTokenRequest = z
  .object({ name: OperatorName, role: OperatorRoleSchema, app: AppSlug.nullable().optional() })
  .strict()
  .refine((request) => request.app !== null || request.role === 'admin', {
    message: 'Only an admin token may be granted every app (app: null); name the app of a viewer or releaser.',
    path: ['app'],
  });
export type CreateOperatorTokenRequest = z.infer<typeof CreateOperatorTokenRequest>;

export const OperatorTokenView = z.object({
  id: z.uuid(),
  name: z.string(),
  role: OperatorRoleSchema,
  /** The app the role is granted in; null: every app. */
  app: z.string().nullable(),
  createdAt: z.iso.datetime(),
  createdBy: z.string(),
  revokedAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type OperatorTokenView = z.infer<typeof OperatorTokenView>;

/** The one answer that carries the token itself. */
export const CreatedOperatorToken = OperatorTokenView.extend({ token: z.string() });
export type CreatedOperatorToken = z.infer<typeof CreatedOperatorToken>;

export const OperatorTokenList = z.object({ tokens: z.array(OperatorTokenView) });
export type OperatorTokenList = z.infer<typeof OperatorTokenList>;

export const OperatorTokenParams = z.object({ id: z.uuid() }).strict();

/** POST /api/console/session: sign in with an operator token (or an OIDC token when configured). */
export const ConsoleSignIn = z.object({ token: z.string().min(1).max(8192) }).strict();
export type ConsoleSignIn = z.infer<typeof ConsoleSignIn>;

/**
 * Who the console is signed in as (GET /api/console/session, and the answer to signing in), and
 * what the access rule lets that role do (`mayPerform`, ota/operator-roles.ts): a console hides the
 * buttons of actions not listed, and the server refuses them anyway.
 */
export const ConsoleSession = z.object({
  name: z.string(),
  /** The role in the app in view (`app`). */
  role: OperatorRoleSchema,
  kind: z.enum(['token', 'oidc']),
  expiresAt: z.iso.datetime().nullable(),
  /** What the role may do in the app in view. */
  allowedActions: z.array(z.enum(OPERATOR_ACTIONS)),
  /** The app in view: the `ferry-app` header's, else the first the operator may see. */
  app: z.string(),
  /** Every app the operator may see, with its role there: what the console's app switcher lists. */
  apps: z.array(z.object({ slug: z.string(), name: z.string(), role: OperatorRoleSchema })),
});
export type ConsoleSession = z.infer<typeof ConsoleSession>;

/** The header every state-changing console request authenticated by the session cookie must carry. */
export const CONSOLE_CSRF_HEADER = 'x-ferry-console';
