import { ErrorBody, PromoteRequest, PromoteResponse } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actAs } from '../../../auth/audit-identity.js';
import { appInViewOf, requireOperatorAction } from '../../../auth/operator-access.js';
import type { ReleaseService } from '../../../ota/release-service.js';

export interface PromoteRouteOptions {
  service: ReleaseService;
  perMinute: number;
  rateKey: (request: FastifyRequest) => string;
}

/** `ferry promote`: a release, or a release group, republished to another channel through the guard. */
export function promoteRoute(app: FastifyInstance, options: PromoteRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/updates/promote',
    {
      // onRequest: strangers are turned away before their input is read or validated.
      onRequest: requireOperatorAction('promote'),
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary: 'Republish a release, or every release of a release group, to another channel',
        description:
          "Each copy is a new release of the target channel's track (a new id, signed as a publish is) with the " +
          "source's assets (copied to the target channel), app config, update policy, fingerprint and message, " +
          'through the native-change guard exactly as a publish to that channel (409 `NATIVE_FINGERPRINT_CHANGED`). ' +
          'A group promotes in one transaction: when one platform is refused, nothing is published and the ' +
          "refusal's message and `details.platform` name it. The copies form a release group of their own; each is " +
          'audited as `release.promoted` with its source.',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        body: PromoteRequest,
        response: {
          201: PromoteResponse,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          422: ErrorBody.meta({
            description: 'ASSET_MISSING: an asset of the source release is gone from the store',
          }),
        },
      },
    },
    async (request, reply) => {
      // An operator's promotion is recorded as theirs, in the audit log and in the new records' metadata.
      const result = await actAs(request, request.body.actor, (actor) =>
        options.service.promote(
          appInViewOf(request),
          { ...request.body, actor: request.operator?.kind === 'release-token' ? request.body.actor : actor },
          actor,
        ),
      );
      return reply.code(201).send(result);
    },
  );
}
