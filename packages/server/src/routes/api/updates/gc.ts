import { AssetGcRequest, AssetGcResponse, AssetVerifyRequest, AssetVerifyResponse, ErrorBody } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actAs } from '../../../auth/audit-identity.js';
import { appInViewOf, requireOperatorAction } from '../../../auth/operator-access.js';
import type { AssetCollector } from '../../../ota/gc/asset-collector.js';
import type { AssetVerifier } from '../../../ota/gc/asset-verifier.js';

export interface AssetGcRouteOptions {
  collector: AssetCollector;
  verifier: AssetVerifier;
  perMinute: number;
  rateKey: (request: FastifyRequest) => string;
}

/** Deletes (or with dryRun, the default, only counts) update assets no kept release lists (docs/ota.md). */
export function assetGcRoute(app: FastifyInstance, options: AssetGcRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/updates/gc',
    {
      // onRequest: strangers are turned away before their input is read or validated.
      onRequest: requireOperatorAction('gc'),
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary:
          'Delete stored update assets that no kept release lists (newest N per track, head, rollout fallback, active rollouts); dry run by default',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        body: AssetGcRequest,
        response: { 200: AssetGcResponse, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) =>
      actAs(request, request.body.actor, (actor) =>
        options.collector.collect(appInViewOf(request), request.body, actor),
      ),
  );

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/updates/gc/verify',
    {
      onRequest: requireOperatorAction('gc'),
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary:
          'Read and hash every asset the releases kept by garbage collection list; name each kept release with a missing or corrupt asset',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        body: AssetVerifyRequest,
        response: { 200: AssetVerifyResponse, 400: ErrorBody, 401: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => options.verifier.verify(appInViewOf(request), request.body),
  );
}
