import {
  APP_HEADER,
  CONSOLE_CSRF_HEADER,
  ConsoleSession,
  ConsoleSignIn,
  ErrorBody,
  roleInApp,
  serverRoleOf,
} from '@ferry/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guardCsrf, type Operator, OperatorForbidden, principalOf } from '../../../auth/operator-access.js';
import { credentialHash, newSessionId } from '../../../auth/operator-credential.js';
import { allowedActions, mayPerform } from '../../../auth/operator-roles.js';
import type { OperatorTokenStore, StoredSession } from '../../../auth/operator-token-store.js';
import { Unauthenticated } from '../../../errors/domain-error.js';

export interface ConsoleSessionRouteOptions {
  store: OperatorTokenStore;
  /** The apps there are: the console lists those the operator may see. */
  apps: { list(): Promise<Array<{ slug: string; name: string; archivedAt: number | null }>> };
  /** Set the cookie's Secure attribute (PUBLIC_URL is https). */
  secure: boolean;
  /** How long a session lasts at most (an OIDC one no longer than its token). */
  sessionTtlMs: number;
  perMinute: number;
  now?: () => Date;
}

/**
 * The release console's sign-in (docs/console.md, "Operator access"). The cookie holds a random
 * session id whose SHA-256 is stored server-side, never the operator token: signing out or revoking
 * the token ends the session on every instance, and the token itself never sits in a browser.
 */
export function consoleSessionRoute(app: FastifyInstance, options: ConsoleSessionRouteOptions): void {
  const route = app.withTypeProvider<ZodTypeProvider>();
  const access = app.operatorAccess;
  const now = options.now ?? (() => new Date());
  const cookie = access.cookieName;
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'strict', secure: options.secure } as const;
  /**
   * The session as the console sees it in one app: the app the request names (`ferry-app`), else
   * the operator's first; its role there; and every app it may see (the switcher).
   */
  const view = async (
    request: FastifyRequest,
    operator: Pick<Operator, 'name' | 'kind' | 'grants'>,
    expiresAt: number | null,
  ): Promise<ConsoleSession> => {
    const apps = (await options.apps.list()).filter(
      (app) => app.archivedAt === null && roleInApp(operator.grants, app.slug) !== undefined,
    );
    const named = request.headers[APP_HEADER];
    const wanted = typeof named === 'string' ? named : undefined;
    const inView = apps.find((app) => app.slug === wanted) ?? apps[0];
    if (wanted !== undefined && inView?.slug !== wanted) {
      throw new OperatorForbidden(`You have no role in app '${wanted}'.`, 'APP_FORBIDDEN', { app: wanted });
    }
    if (!inView) throw new OperatorForbidden('Your grants name no app on this server.', 'APP_FORBIDDEN', {});
    const role = roleInApp(operator.grants, inView.slug)!;
    return {
      name: operator.name,
      role,
      kind: operator.kind === 'oidc' ? 'oidc' : 'token',
      expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      // The same rule the routes enforce: a console shows only what the role may do in this app.
      // Managing apps is no app's: listed only for an admin of every app, as the routes judge it.
      allowedActions: allowedActions(role).filter(
        (action) => action !== 'apps.manage' || serverRoleOf(operator.grants) === 'admin',
      ),
      app: inView.slug,
      apps: apps.map((app) => ({ slug: app.slug, name: app.name, role: roleInApp(operator.grants, app.slug)! })),
    };
  };
  // Sign-in tries tokens: a tight per-address limit keeps guessing pointless (the tokens have 256 bits anyway).
  const rateLimit = { max: options.perMinute, timeWindow: '1 minute' };
  const requireConsoleHeader = async (request: FastifyRequest) => {
    // The sign-in and sign-out requests set or clear the cookie: the same CSRF header as any cookie change.
    guardCsrf(request, { via: 'session' });
  };

  route.post(
    '/api/console/session',
    {
      // After validation: nothing happens before the handler, and a malformed body is told so first.
      preHandler: requireConsoleHeader,
      config: { rateLimit },
      schema: {
        summary: 'Sign in to the release console with an operator token (sets an HttpOnly session cookie)',
        description: `Needs the header \`${CONSOLE_CSRF_HEADER}: 1\`. The release token is not a console login (403).`,
        tags: ['console'],
        body: ConsoleSignIn,
        response: { 200: ConsoleSession, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      const operator = await access.verifyBearer(request, request.body.token);
      // The release token is the principal the rule refuses a sign-in (a machine credential).
      if (!mayPerform(principalOf(operator), 'console.sign-in') || operator.kind === 'release-token') {
        throw new OperatorForbidden(
          'The release token (OTA_RELEASE_TOKEN) is for CI and the CLI, not a console login. Sign in with an operator token (ferry-server tokens create).',
          'NOT_A_CONSOLE_LOGIN',
        );
      }
      const at = now().getTime();
      // An OIDC session ends no later than its token: the identity provider's say is only that recent.
      const expiresAt = Math.min(at + options.sessionTtlMs, operator.expiresAtMs ?? Number.POSITIVE_INFINITY);
      const session: StoredSession = {
        kind: operator.kind,
        tokenId: operator.kind === 'token' ? operator.id : null,
        subject: operator.id,
        name: operator.name,
        role: operator.role,
        grants: operator.grants,
        expiresAt,
      };
      const sessionId = newSessionId();
      await options.store.deleteExpiredSessions();
      await options.store.createSession(credentialHash(sessionId), session);
      await options.store.audit('console.signed_in', `operator:${operator.name}`, {
        operator: { kind: operator.kind, id: operator.id, via: 'bearer' },
      });
      reply.setCookie(cookie, sessionId, { ...cookieOptions, maxAge: Math.floor((expiresAt - at) / 1000) });
      reply.header('cache-control', 'no-store');
      return view(request, operator, expiresAt);
    },
  );

  route.get(
    '/api/console/session',
    {
      config: { rateLimit: { max: options.perMinute * 10, timeWindow: '1 minute' } },
      schema: {
        summary: 'Who the console is signed in as (401 without a live session)',
        tags: ['console'],
        response: { 200: ConsoleSession, 401: ErrorBody },
      },
    },
    async (request, reply) => {
      const notSignedIn = () => new Unauthenticated('Not signed in to the console.', 'Bearer realm="ferry"');
      const sessionId = access.sessionIdOf(request);
      if (sessionId === undefined) throw notSignedIn();
      // A cookie naming no live session is a refused credential: it counts like a wrong token.
      const found = await access.failures.check(request, async () => {
        const session = await options.store.session(credentialHash(sessionId));
        if (!session) throw notSignedIn();
        return session;
      });
      reply.header('cache-control', 'no-store');
      return view(request, found, found.expiresAt);
    },
  );

  route.delete(
    '/api/console/session',
    {
      onRequest: requireConsoleHeader,
      config: { rateLimit: { max: options.perMinute * 10, timeWindow: '1 minute' } },
      schema: {
        summary: 'Sign out of the release console (ends the session on every instance)',
        description: `Needs the header \`${CONSOLE_CSRF_HEADER}: 1\`.`,
        tags: ['console'],
        response: { 204: z.null(), 403: ErrorBody },
      },
    },
    async (request, reply: FastifyReply) => {
      const sessionId = access.sessionIdOf(request);
      if (sessionId !== undefined) await options.store.deleteSession(credentialHash(sessionId));
      reply.clearCookie(cookie, cookieOptions);
      return reply.code(204).send();
    },
  );
}
