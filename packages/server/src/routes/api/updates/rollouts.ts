import {
  ErrorBody,
  GroupRolloutChange,
  GroupRolloutResponse,
  RolloutChange,
  RolloutParams,
  RolloutResponse,
} from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actAs } from '../../../auth/audit-identity.js';
import { appInViewOf, requireOperatorAction } from '../../../auth/operator-access.js';
import type { RolloutService } from '../../../ota/rollout/rollout-service.js';

export interface RolloutsRouteOptions {
  rollouts: RolloutService;
  perMinute: number;
  rateKey: (request: FastifyRequest) => string;
}

/** A release's rollout: its share, state and health; and the changes `ferry rollout` makes. */
export function rolloutsRoute(app: FastifyInstance, options: RolloutsRouteOptions): void {
  const route = app.withTypeProvider<ZodTypeProvider>();
  const common = {
    config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
  };
  route.get(
    '/api/updates/rollouts/:releaseId',
    {
      ...common,
      // onRequest: strangers are turned away before their input is read or validated.
      onRequest: requireOperatorAction('read'),
      schema: {
        summary:
          "A release's rollout: share, state (running, complete, reverted, halted, superseded) and device health",
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        params: RolloutParams,
        response: { 200: RolloutResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => ({ rollout: await options.rollouts.view(appInViewOf(request), request.params.releaseId) }),
  );
  route.post(
    '/api/updates/rollouts/:releaseId',
    {
      ...common,
      onRequest: requireOperatorAction('rollout.change'),
      schema: {
        summary:
          'Change a running or halted rollout: a new share (100 completes it), complete, halt, resume, or revert',
        description: CHANGE_DESCRIPTION,
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        params: RolloutParams,
        body: RolloutChange,
        response: {
          200: RolloutResponse,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
        },
      },
    },
    async (request) => ({
      rollout: await actAs(request, request.body.actor, (actor) =>
        options.rollouts.change(appInViewOf(request), request.params.releaseId, request.body, actor),
      ),
    }),
  );
  route.post(
    '/api/updates/rollouts',
    {
      ...common,
      onRequest: requireOperatorAction('rollout.change'),
      schema: {
        summary: 'Change the rollouts of every release of a release group at once (body: groupId and the change)',
        description:
          `${CHANGE_DESCRIPTION} Every platform of the group takes the change in one transaction: when one ` +
          "platform's rollout cannot (it has none, or it ended), nothing changes and the refusal's message and " +
          '`details.platform` name that platform. Audited once per platform, each event with `details.groupId`.',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        body: GroupRolloutChange,
        response: {
          200: GroupRolloutResponse,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
        },
      },
    },
    async (request) => {
      const { groupId, ...change } = request.body;
      return actAs(request, change.actor, (actor) =>
        options.rollouts.changeGroup(appInViewOf(request), groupId, change, actor),
      );
    },
  );
}

const CHANGE_DESCRIPTION =
  'A halt stops the spread (nobody else gets the release; a halted rollout stays halted); resume lets a halted ' +
  'rollout run again at its share (a running one stays so); a new share also resumes it. A revert publishes the ' +
  'fallback again as the newest entry of the track (a copy of the release devices outside the rollout got, or a ' +
  'roll back to the embedded bundle when there was none), so devices that run the reverted release move back too.';
