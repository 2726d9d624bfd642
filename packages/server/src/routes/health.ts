import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { DependencyUnavailable } from '../errors/domain-error.js';

/** Liveness and readiness, for every area: /readyz answers 503 while the database is unreachable. */
export const healthPlugin: FastifyPluginAsync = async (app) => {
  const { database } = app;
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (request) => {
    try {
      await sql`select 1`.execute(database.db);
      return { status: 'ready', database: database.engine };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      throw new DependencyUnavailable('database');
    }
  });
};
