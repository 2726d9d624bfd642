import { ErrorBody, ReleaseCreatedResponse, ReleasePayload } from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { appInViewOf, requireOperatorAction } from '../../../auth/operator-access.js';
import type { ReleaseService } from '../../../ota/release-service.js';

export interface ReleaseRouteOptions {
  service: ReleaseService;
  bodyLimit: number;
  perMinute: number;
  rateKey: (request: import('fastify').FastifyRequest) => string;
}

export function releaseRoute(app: FastifyInstance, options: ReleaseRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/updates/release',
    {
      bodyLimit: options.bodyLimit,
      // onRequest: strangers are turned away before their body is read or validated.
      onRequest: requireOperatorAction('publish'),
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary: 'Register an OTA release (guarded against native changes on production)',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        body: ReleasePayload,
        response: {
          201: ReleaseCreatedResponse,
          400: ErrorBody,
          401: ErrorBody,
          409: ErrorBody,
          422: ErrorBody.meta({
            description: 'ASSET_MISSING (upload them, then publish again) or ASSET_URL_MISMATCH',
          }),
        },
      },
    },
    async (request, reply) => {
      const actor = request.body.metadata?.actor ?? 'release-token';
      const release = await options.service.publish(appInViewOf(request), request.body, actor);
      return reply.code(201).send({ release });
    },
  );
}
