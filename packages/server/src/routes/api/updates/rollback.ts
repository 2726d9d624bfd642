import { ErrorBody, RollbackRequest, RollbackResponse, rollbackTarget } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actAs } from '../../../auth/audit-identity.js';
import { appInViewOf, requireOperatorAction } from '../../../auth/operator-access.js';
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
        summary:
          'Restore an earlier release of a track, or of every platform of a release group, as a new record (default: the one before the newest)',
        description:
          'With `groupId` every release of the group must still be the newest of its track (else 409 ' +
          '`GROUP_SUPERSEDED`), and each track gets the release before it, or the release of `toGroupId` of the ' +
          "same platform, in one transaction: when one platform refuses, nothing changes and the refusal's " +
          'message and `details.platform` name it. The new records form a release group of their own.',
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
      const target = rollbackTarget(request.body);
      const result = await actAs<RollbackResponse>(request, request.body.actor, (actor) => {
        const recorded = request.operator?.kind === 'release-token' ? request.body.actor : actor;
        return target.kind === 'group'
          ? options.service.rollbackGroup(appInViewOf(request), { ...target.request, actor: recorded }, actor)
          : options.service.rollback(appInViewOf(request), { ...target.request, actor: recorded }, actor);
      });
      return reply.code(201).send(result);
    },
  );
}
