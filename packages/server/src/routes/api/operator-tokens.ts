import {
  CreatedOperatorToken,
  CreateOperatorTokenRequest,
  ErrorBody,
  OperatorTokenList,
  OperatorTokenParams,
  OperatorTokenView,
  roleInApp,
  serverRoleOf,
} from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  appInViewOf,
  appNotFound,
  auditActorOf,
  auditIdentityOf,
  OperatorForbidden,
  requireOperatorAction,
} from '../../auth/operator-access.js';
import { OperatorNameTaken, type OperatorTokenStore } from '../../auth/operator-token-store.js';
import { DomainError } from '../../errors/domain-error.js';

export interface OperatorTokensRouteOptions {
  store: OperatorTokenStore;
  perMinute: number;
}

class TokenNameTaken extends DomainError {
  override name = 'TokenNameTaken';
  constructor(name: string) {
    super(
      'conflict',
      'NAME_TAKEN',
      `An operator token named ${name} exists already (names are unique: they are audited).`,
    );
  }
}

class TokenNotFound extends DomainError {
  override name = 'TokenNotFound';
  constructor() {
    super('not-found', 'NOT_FOUND', 'No operator token has this id.');
  }
}

/** Whether the request's operator is an admin of every app (server-wide), who sees and manages every token. */
const isServerAdmin = (request: FastifyRequest): boolean => serverRoleOf(request.operator?.grants ?? []) === 'admin';

/**
 * Operator tokens over HTTP, for admins (the same as `ferry-server tokens`). An admin of one app
 * manages the tokens of that app (the app in view); an admin of every app manages all of them and
 * alone may make a server-wide one.
 */
export function operatorTokensRoute(app: FastifyInstance, options: OperatorTokensRouteOptions): void {
  const route = app.withTypeProvider<ZodTypeProvider>();
  const common = {
    onRequest: requireOperatorAction('tokens.manage'),
    config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute' } },
  };
  route.post(
    '/api/operator-tokens',
    {
      ...common,
      schema: {
        summary: 'Create an operator token (admin); the answer is the only time the token is shown',
        tags: ['operators'],
        security: [{ releaseToken: [] }],
        body: CreateOperatorTokenRequest,
        response: { 201: CreatedOperatorToken, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const inView = appInViewOf(request);
      const { role } = request.body;
      // Omitted: an admin token is server-wide, any other the app in view's.
      const target = request.body.app === undefined ? (role === 'admin' ? null : inView) : request.body.app;
      if (target === null ? !isServerAdmin(request) : roleInApp(request.operator?.grants ?? [], target) !== 'admin') {
        throw new OperatorForbidden(
          target === null
            ? 'Only an admin of every app may create a token for every app.'
            : `Only an admin of app '${target}' may create its tokens.`,
          'APP_FORBIDDEN',
          { app: target },
        );
      }
      if (target !== null && !(await request.server.operatorAccess.apps.find(target))) throw appNotFound(target);
      try {
        const created = await options.store.create(
          { ...request.body, app: target },
          {
            actor: auditActorOf(request, undefined),
            details: auditIdentityOf(request),
          },
        );
        return reply.code(201).header('cache-control', 'no-store').send(created);
      } catch (error) {
        if (error instanceof OperatorNameTaken) throw new TokenNameTaken(request.body.name);
        throw error;
      }
    },
  );
  route.get(
    '/api/operator-tokens',
    {
      ...common,
      schema: {
        summary: 'Operator tokens, revoked ones included (admin); never the tokens themselves',
        tags: ['operators'],
        security: [{ releaseToken: [] }],
        response: { 200: OperatorTokenList, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const tokens = await options.store.list();
      if (isServerAdmin(request)) return { tokens };
      const inView = appInViewOf(request);
      return { tokens: tokens.filter((token) => token.app === inView) };
    },
  );
  route.delete(
    '/api/operator-tokens/:id',
    {
      ...common,
      schema: {
        summary: 'Revoke an operator token (admin): refused at once on every instance, its console sessions end',
        tags: ['operators'],
        security: [{ releaseToken: [] }],
        params: OperatorTokenParams,
        response: { 200: OperatorTokenView, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const found = await options.store.find(request.params.id);
      // Another app's token is not found, as if it did not exist.
      if (!found || (!isServerAdmin(request) && found.app !== appInViewOf(request))) throw new TokenNotFound();
      const revoked = await options.store.revoke(request.params.id, {
        actor: auditActorOf(request, undefined),
        details: auditIdentityOf(request),
      });
      if (!revoked) throw new TokenNotFound();
      return revoked.token;
    },
  );
}
