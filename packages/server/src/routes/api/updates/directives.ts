import { DirectiveCreatedResponse, DirectiveRequest, directiveTarget, ErrorBody } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actAs } from '../../../auth/audit-identity.js';
import { appInViewOf, requireOperatorAction } from '../../../auth/operator-access.js';
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
        summary:
          'Roll a track, or the tracks of every release of a release group, back to the embedded bundle (a signed rollBackToEmbedded directive)',
        description:
          'Devices of the track get a signed `rollBackToEmbedded` directive whose commitTime is the directive’s ' +
          'createdAt, until the next publish or rollback on the track supersedes it. With `groupId`, one directive ' +
          'per platform of the group, in one transaction.',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        body: DirectiveRequest,
        response: { 201: DirectiveCreatedResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      // An operator's directive is recorded as theirs, in the audit log and on the directive.
      const target = directiveTarget(request.body);
      const answer = await actAs(request, request.body.actor, async (actor) => {
        const recorded = request.operator?.kind === 'release-token' ? request.body.actor : actor;
        if (target.kind === 'group') {
          return options.rollouts.rollBackGroupToEmbedded(
            appInViewOf(request),
            target.groupId,
            { ...target.request, actor: recorded },
            actor,
          );
        }
        return {
          directive: await options.rollouts.rollBackToEmbedded(
            appInViewOf(request),
            { ...target.request, actor: recorded },
            actor,
          ),
        };
      });
      return reply.code(201).send(answer);
    },
  );
}
