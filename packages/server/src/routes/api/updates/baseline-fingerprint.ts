import { BaselineQuery, BaselineResponse, ErrorBody } from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ReleaseService } from '../../../ota/release-service.js';

/** Unauthenticated on purpose: pull-request runs from forks have no secrets. Rate-limited per IP instead. */
export function baselineFingerprintRoute(
  app: FastifyInstance,
  options: { service: ReleaseService; perMinute: number },
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/updates/baseline-fingerprint',
    {
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute' } },
      schema: {
        summary: 'The production baseline fingerprint the guard compares the next release with',
        tags: ['updates'],
        querystring: BaselineQuery,
        response: { 200: BaselineResponse, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => options.service.baseline(request.query),
  );
}
