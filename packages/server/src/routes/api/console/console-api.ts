import {
  ConsoleGroup,
  ConsoleGroupParams,
  ConsoleHistoryResponse,
  ConsoleReleaseDetail,
  ConsoleReleaseParams,
  ConsoleTrackQuery,
  ConsoleTracksResponse,
  ErrorBody,
} from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appInViewOf } from '../../../auth/operator-access.js';
import { errorBody } from '../../../http/error-body.js';
import type { ConsoleReads } from '../../../ota/console/console-reads.js';
import type { ConsoleEventStreams } from '../../../ota/console/event-stream.js';

export interface ConsoleApiOptions {
  reads: ConsoleReads;
  streams: ConsoleEventStreams;
  /** Admits operators with at least the viewer role (a console session or an operator token). */
  requireViewer: (request: FastifyRequest) => Promise<void>;
  perMinute: number;
}

/** An operator token or the release token (bearer), or the console session cookie. */
const security: Array<Record<string, string[]>> = [{ releaseToken: [] }];

/** The console's read API and its live event stream; every route needs the viewer role. */
export function consoleApiRoutes(app: FastifyInstance, options: ConsoleApiOptions): void {
  const route = app.withTypeProvider<ZodTypeProvider>();
  const common = {
    // onRequest: strangers are turned away before their input is read or validated.
    onRequest: options.requireViewer,
    config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute' } },
  };
  route.get(
    '/api/console/tracks',
    {
      ...common,
      schema: {
        summary: 'Every track with its active release, rollout state, adoption, failure rate and guard counts',
        tags: ['console'],
        security,
        response: { 200: ConsoleTracksResponse, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { tracks: await options.reads.tracks(appInViewOf(request)) };
    },
  );
  route.get(
    '/api/console/history',
    {
      ...common,
      schema: {
        summary: 'A track’s releases, rollbacks and directives, newest first, and the devices seen on it',
        tags: ['console'],
        security,
        querystring: ConsoleTrackQuery,
        response: { 200: ConsoleHistoryResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return {
        entries: await options.reads.history({ ...request.query, app: appInViewOf(request) }),
        devices: await options.reads.trackDevices({ ...request.query, app: appInViewOf(request) }),
      };
    },
  );
  route.get(
    '/api/console/releases/:releaseId',
    {
      ...common,
      schema: {
        summary: 'A release: assets with sizes, its signed manifests and whether they verify, adoption over time',
        tags: ['console'],
        security,
        params: ConsoleReleaseParams,
        response: { 200: ConsoleReleaseDetail, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return options.reads.release(appInViewOf(request), request.params.releaseId);
    },
  );
  route.get(
    '/api/console/groups/:groupId',
    {
      ...common,
      schema: {
        summary:
          'A release group: every platform of one publish, each with its rollout, whether it is still active, adoption and health',
        tags: ['console'],
        security,
        params: ConsoleGroupParams,
        response: { 200: ConsoleGroup, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return options.reads.group(appInViewOf(request), request.params.groupId);
    },
  );
  route.get(
    '/api/console/events',
    {
      ...common,
      schema: {
        // A stream that never ends: a client reads it as events (docs/console.md), and the
        // document-driven fuzz test leaves text/event-stream operations out.
        summary: 'Server-sent events: a track changed here or on another instance (text/event-stream)',
        tags: ['console'],
        security,
        response: {
          200: {
            description: 'An event stream that stays open (heartbeats keep it alive)',
            content: { 'text/event-stream': { schema: z.string().meta({ description: 'Server-sent events' }) } },
          },
          401: ErrorBody,
          403: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      if (options.streams.full) {
        return reply
          .code(503)
          .header('retry-after', '10')
          .send(errorBody('TOO_MANY_STREAMS', 'Too many console event streams are open; try again shortly.'));
      }
      // The stream outlives the handler: Fastify hands the socket over.
      reply.hijack();
      // Asked again at every heartbeat: the same check, against the same cookie or token.
      const stillAdmitted = () =>
        options.requireViewer(request).then(
          () => true,
          () => false,
        );
      options.streams.attach(reply.raw, stillAdmitted, appInViewOf(request));
      request.log.debug('console event stream opened');
    },
  );
}
