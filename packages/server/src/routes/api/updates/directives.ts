import { DirectiveCreatedResponse, DirectiveRequest, ErrorBody } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actAs } from '../../../auth/audit-identity.js';
import { requireOperatorAction } from '../../../auth/operator-access.js';
import type { RolloutService } from '../../../ota/rollout/rollout-service.js';

export interface DirectivesRouteOptions {
  rollouts: RolloutService;
  perMinute: number;
  rateKey: (request: FastifyRequest) => string;
}

/** `ferry rollback --to-embedded`: devices of a track go back to their build's embedded bundle. */
export function directivesRoute(app: FastifyInstance, options: DirectivesRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/updates/directives',
    {
      onRequest: requireOperatorAction('directive.create'),
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary: 'Roll a track back to the embedded bundle (a signed rollBackToEmbedded directive)',
        description:
          'Devices of the track get a signed `rollBackToEmbedded` directive whose commitTime is the directive’s ' +
          'createdAt, until the next publish or rollback on the track supersedes it.',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        body: DirectiveRequest,
        response: { 201: DirectiveCreatedResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      // An operator's directive is recorded as theirs, in the audit log and on the directive.
      const directive = await actAs(request, request.body.actor, (actor) =>
        options.rollouts.rollBackToEmbedded(
          { ...request.body, actor: request.operator?.kind === 'release-token' ? request.body.actor : actor },
          actor,
        ),
      );
      return reply.code(201).send({ directive });
    },
  );
}
