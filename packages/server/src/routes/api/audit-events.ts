import { Readable } from 'node:stream';
import { type AuditEvent, AuditEventPage, AuditExportQuery, ErrorBody, NDJSON_MEDIA_TYPE } from '@ferry/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appInViewOf, requireOperatorAction } from '../../auth/operator-access.js';
import type { AuditExport, OpenedExport } from '../../ota/audit-export.js';

export interface AuditEventsRouteOptions {
  audit: AuditExport;
  perMinute: number;
  rateKey: (request: FastifyRequest) => string;
}

const lines = (events: AuditEvent[]): string => events.map((event) => `${JSON.stringify(event)}\n`).join('');

async function* ndjson(opened: OpenedExport): AsyncIterable<string> {
  if (opened.first.length > 0) yield lines(opened.first);
  for await (const batch of opened.rest) yield lines(batch);
}

/**
 * The audit log (`ferry audit`, the console's audit page). By default the export: NDJSON, oldest
 * first, one event per line, streamed a batch at a time. With order=newest: JSON pages newest first
 * with a cursor. Refusals are the common JSON error body.
 */
export function auditEventsRoute(app: FastifyInstance, options: AuditEventsRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/audit-events',
    {
      // onRequest: strangers are turned away before their input is read or validated.
      onRequest: requireOperatorAction('read'),
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary:
          'Audit events: NDJSON oldest first (resume with after=<last seq>), or with order=newest JSON pages newest first (cursor)',
        description:
          'Filters combine: type (several: any of them), actor (exact), channel, platform, runtimeVersion, ' +
          'releaseId, from (inclusive; since is its older name) and to (exclusive; a date alone means to the end ' +
          'of that day, UTC). order=newest answers `{ events, nextCursor }` (limit 50 by default, at most 500); ' +
          'pass nextCursor back as cursor for the next, older page: pages neither repeat nor skip an event while ' +
          'others are written.',
        tags: ['audit'],
        security: [{ releaseToken: [] }],
        querystring: AuditExportQuery,
        response: {
          200: {
            description: 'order=oldest: one audit event (JSON) per line, oldest first; order=newest: one page',
            content: {
              [NDJSON_MEDIA_TYPE]: { schema: z.string().meta({ description: 'NDJSON: one event per line' }) },
              'application/json': { schema: AuditEventPage },
            },
          },
          400: ErrorBody,
          401: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      if (request.query.order === 'newest') {
        const page = await options.audit.page(appInViewOf(request), request.query);
        reply.type('application/json; charset=utf-8').header('cache-control', 'no-store');
        // Serialized here: the 200 declares two bodies, and this one is checked by its type.
        return (reply as FastifyReply).send(JSON.stringify(page satisfies AuditEventPage));
      }
      const opened = await options.audit.open(appInViewOf(request), request.query);
      reply.type(`${NDJSON_MEDIA_TYPE}; charset=utf-8`).header('cache-control', 'no-store');
      // A stream: the 200's declared schema describes it, Fastify never serializes it.
      const body: unknown = Readable.from(ndjson(opened), { objectMode: false });
      return (reply as FastifyReply).send(body);
    },
  );
}
