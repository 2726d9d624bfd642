import { ErrorBody, RollbackRequest, RollbackResponse } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ReleaseService } from '../../../ota/release-service.js';

export interface RollbackRouteOptions {
  service: ReleaseService;
  requireReleaseToken: (request: FastifyRequest) => Promise<void>;
  perMinute: number;
  rateKey: (request: FastifyRequest) => string;
}

/** Republishes an earlier release of a track as its new active release (decisions.md §4). */
export function rollbackRoute(app: FastifyInstance, options: RollbackRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/updates/rollback',
    {
      // onRequest: strangers are turned away before their input is read or validated.
      onRequest: options.requireReleaseToken,
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary: 'Restore an earlier release of a track as a new record (default: the one before the newest)',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        body: RollbackRequest,
        response: { 201: RollbackResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const result = await options.service.rollback(request.body, request.body.actor ?? 'release-token');
      return reply.code(201).send(result);
    },
  );
}
