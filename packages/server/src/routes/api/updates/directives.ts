import { DirectiveCreatedResponse, DirectiveRequest, ErrorBody } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RolloutService } from '../../../ota/rollout/rollout-service.js';

export interface DirectivesRouteOptions {
  rollouts: RolloutService;
  requireReleaseToken: (request: FastifyRequest) => Promise<void>;
  perMinute: number;
  rateKey: (request: FastifyRequest) => string;
}

/** `ferry rollback --to-embedded`: devices of a track go back to their build's embedded bundle. */
export function directivesRoute(app: FastifyInstance, options: DirectivesRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/updates/directives',
    {
      onRequest: options.requireReleaseToken,
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary: 'Roll a track back to the embedded bundle (a signed rollBackToEmbedded directive)',
        description:
          'Devices of the track get a signed `rollBackToEmbedded` directive whose commitTime is the directive’s ' +
          'createdAt, until the next publish or rollback on the track supersedes it.',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        body: DirectiveRequest,
        response: { 201: DirectiveCreatedResponse, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request, reply) => {
      const directive = await options.rollouts.rollBackToEmbedded(request.body, request.body.actor ?? 'release-token');
      return reply.code(201).send({ directive });
    },
  );
}
