import { ErrorBody, RollbackRequest, RollbackResponse } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actAs } from '../../../auth/audit-identity.js';
import { requireOperatorAction } from '../../../auth/operator-access.js';
import type { ReleaseService } from '../../../ota/release-service.js';

export interface RollbackRouteOptions {
  service: ReleaseService;
  perMinute: number;
  rateKey: (request: FastifyRequest) => string;
}

/** Republishes an earlier release of a track as its new active release (decisions.md §4). */
export function rollbackRoute(app: FastifyInstance, options: RollbackRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/updates/rollback',
    {
      // onRequest: strangers are turned away before their input is read or validated.
      onRequest: requireOperatorAction('rollback'),
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary: 'Restore an earlier release of a track as a new record (default: the one before the newest)',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        body: RollbackRequest,
        response: {
          201: RollbackResponse,
          400: ErrorBody,
          422: ErrorBody.meta({
            description: 'ASSET_MISSING: an asset of the release to restore is gone from the store',
          }),
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      // An operator's rollback is recorded as theirs, in the audit log and in the new record's metadata.
      const result = await actAs(request, request.body.actor, (actor) =>
        options.service.rollback(
          { ...request.body, actor: request.operator?.kind === 'release-token' ? request.body.actor : actor },
          actor,
        ),
      );
      return reply.code(201).send(result);
    },
  );
}
