import { ErrorBody, ReleaseListQuery, ReleaseListResponse } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { appInViewOf, requireOperatorAction } from '../../../auth/operator-access.js';
import type { ReleaseListing } from '../../../ota/release-listing.js';

export interface ReleasesRouteOptions {
  listing: ReleaseListing;
  perMinute: number;
  rateKey: (request: FastifyRequest) => string;
}

/**
 * Releases newest first, across tracks or narrowed to one (`ferry releases`); release token only.
 * For a whole track the first entry of the first page is its active release.
 */
export function releasesRoute(app: FastifyInstance, options: ReleasesRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/updates/releases',
    {
      // onRequest: strangers are turned away before their input is read or validated.
      onRequest: requireOperatorAction('read'),
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary: 'Releases newest first, filtered by channel, platform and runtimeVersion, a page at a time',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        querystring: ReleaseListQuery,
        response: { 200: ReleaseListResponse, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => options.listing.list(appInViewOf(request), request.query),
  );
}
