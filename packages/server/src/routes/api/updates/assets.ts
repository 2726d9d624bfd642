import { AssetUploadCheckRequest, AssetUploadCheckResponse, ErrorBody } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { appInViewOf, requireOperatorAction } from '../../../auth/operator-access.js';
import type { AssetUploadService } from '../../../ota/assets/asset-upload-service.js';

/** 10 000 assets of ~150 bytes each fit comfortably. */
const ASSET_CHECK_BODY_LIMIT = 4 * 1024 * 1024;

export interface AssetsRouteOptions {
  service: AssetUploadService;
  perMinute: number;
  rateKey: (request: FastifyRequest) => string;
}

/** POST /api/updates/assets: the publisher learns which assets to upload, and where. */
export function assetsRoute(app: FastifyInstance, options: AssetsRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/updates/assets',
    {
      bodyLimit: ASSET_CHECK_BODY_LIMIT,
      onRequest: requireOperatorAction('publish'),
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary: 'Which assets of a track are stored; upload URLs for the missing ones',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        body: AssetUploadCheckRequest,
        response: { 200: AssetUploadCheckResponse, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody },
      },
    },
    async (request) => ({ assets: await options.service.check(appInViewOf(request), request.body) }),
  );
}
