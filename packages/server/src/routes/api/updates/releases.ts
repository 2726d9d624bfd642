import { ErrorBody, ReleaseListQuery, ReleaseListResponse } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ReleaseService } from '../../../ota/release-service.js';

export interface ReleasesRouteOptions {
  service: ReleaseService;
  requireReleaseToken: (request: FastifyRequest) => Promise<void>;
  perMinute: number;
  rateKey: (request: FastifyRequest) => string;
}

/** A track's release history for the CLI (`ferry releases`, `ferry rollback`); release token only. */
export function releasesRoute(app: FastifyInstance, options: ReleasesRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/updates/releases',
    {
      // onRequest: strangers are turned away before their input is read or validated.
      onRequest: options.requireReleaseToken,
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary: "A track's releases, newest (active) first",
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        querystring: ReleaseListQuery,
        response: { 200: ReleaseListResponse, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => ({ releases: await options.service.history(request.query) }),
  );
}
