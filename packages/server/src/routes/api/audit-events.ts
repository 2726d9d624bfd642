import { Readable } from 'node:stream';
import { type AuditEvent, AuditExportQuery, ErrorBody, NDJSON_MEDIA_TYPE } from '@ferry/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireOperatorAction } from '../../auth/operator-access.js';
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
 * The audit log as NDJSON, oldest first, one event per line (`ferry audit`); release token only.
 * The body is streamed a batch at a time. Refusals are the common JSON error body.
 */
export function auditEventsRoute(app: FastifyInstance, options: AuditEventsRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/audit-events',
    {
      // onRequest: strangers are turned away before their input is read or validated.
      onRequest: requireOperatorAction('read'),
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey } },
      schema: {
        summary: 'Audit events as NDJSON (application/x-ndjson), oldest first; resume with after=<last seq>',
        tags: ['audit'],
        security: [{ releaseToken: [] }],
        querystring: AuditExportQuery,
        response: {
          200: {
            description: 'One audit event (JSON) per line, oldest first',
            content: {
              [NDJSON_MEDIA_TYPE]: { schema: z.string().meta({ description: 'NDJSON: one event per line' }) },
            },
          },
          400: ErrorBody,
          401: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const opened = await options.audit.open(request.query);
      reply.type(`${NDJSON_MEDIA_TYPE}; charset=utf-8`).header('cache-control', 'no-store');
      // A stream: the 200's declared schema describes it, Fastify never serializes it.
      const body: unknown = Readable.from(ndjson(opened), { objectMode: false });
      return (reply as FastifyReply).send(body);
    },
  );
}
