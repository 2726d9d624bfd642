import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { errorBody } from '../http/app-error.js';
import type { Database } from '../storage/database.js';

export function healthRoutes(app: FastifyInstance, database: Database): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      return { status: 'ready', database: database.engine };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send(errorBody('UNAVAILABLE', 'The database is not reachable.'));
    }
  });
}
