import {
  CreatedOperatorToken,
  CreateOperatorTokenRequest,
  ErrorBody,
  OperatorTokenList,
  OperatorTokenParams,
  OperatorTokenView,
} from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditActorOf, auditIdentityOf, requireOperatorAction } from '../../auth/operator-access.js';
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

/** Operator tokens over HTTP, for admins (the same as `ferry-server tokens`). */
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
      try {
        const created = await options.store.create(request.body, {
          actor: auditActorOf(request, undefined),
          details: auditIdentityOf(request),
        });
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
    async () => ({ tokens: await options.store.list() }),
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
      const revoked = await options.store.revoke(request.params.id, {
        actor: auditActorOf(request, undefined),
        details: auditIdentityOf(request),
      });
      if (!revoked) throw new TokenNotFound();
      return revoked.token;
    },
  );
}
