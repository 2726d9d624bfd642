import { ErrorBody } from '@ferry/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { DependencyUnavailable, DomainError } from '../errors/domain-error.js';
import { readiness, type ServableWithoutDatabase, type StartupWork } from './readiness.js';

/**
 * How long readiness waits for the database before it counts it unreachable. Below the chart's
 * probe timeout (3 s), so a database that does not answer (a partition, a pool whose connections
 * are all busy) gives an answer the probe reads rather than a probe timeout.
 */
export const READINESS_DATABASE_TIMEOUT_MS = 2_000;

export interface HealthPluginOptions {
  /** What the areas can serve without the database (readiness.ts). */
  servable: ServableWithoutDatabase;
  /** What the instance does once it listens; it is not ready before that is done. */
  startup: StartupWork;
}

/** Whether the database answers `select 1` within READINESS_DATABASE_TIMEOUT_MS; the failure if not. */
async function probeDatabase(run: () => Promise<unknown>): Promise<{ reachable: boolean; failure?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<{ reachable: false; failure: Error }>((resolve) => {
    timer = setTimeout(
      () => resolve({ reachable: false, failure: new Error('the database did not answer in time') }),
      READINESS_DATABASE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      run().then(
        () => ({ reachable: true }),
        (failure: unknown) => ({ reachable: false, failure }),
      ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const Liveness = z.object({ status: z.literal('ok') });
const Readiness = z.object({
  status: z.enum(['ready', 'degraded']),
  database: z.enum(['sqlite', 'postgres']),
  /** Only while degraded: the database did not answer, cached manifests are still served. */
  databaseReachable: z.literal(false).optional(),
  cachedManifests: z.number().int().nonnegative().optional(),
});

/**
 * Liveness and readiness, for every area. /healthz never touches the database, so a liveness probe
 * never restarts an instance for a database outage. /readyz says whether the instance should get
 * traffic (readiness.ts): 503 while `starting`, 200 `ready`, 200 `degraded` while the database is unreachable but cached
 * manifests can still be served, 503 when the instance can serve nothing.
 */
export const healthPlugin: FastifyPluginAsync<HealthPluginOptions> = async (app, options) => {
  const { database } = app;
  app.get(
    '/healthz',
    { schema: { summary: 'Liveness: the process answers', tags: ['health'], response: { 200: Liveness } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness: whether this instance should get traffic',
        tags: ['health'],
        response: { 200: Readiness, 503: ErrorBody },
      },
    },
    async (request) => {
      const probe = await probeDatabase(() => sql`select 1`.execute(database.db));
      const servable = probe.reachable ? 0 : options.servable.count();
      const state = readiness({
        starting: options.startup.pending,
        databaseReachable: probe.reachable,
        servableWithoutDatabase: servable,
      });
      if (state === 'starting') {
        throw new DomainError(
          'unavailable',
          'UNAVAILABLE',
          'The instance is starting: it is loading its manifest cache. Try again shortly.',
          { starting: true },
          1,
        );
      }
      if (state === 'ready') return { status: 'ready', database: database.engine };
      if (state === 'degraded') {
        request.log.warn(
          { err: probe.failure, cachedManifests: servable },
          'readiness: database unreachable, still ready to serve cached manifests',
        );
        return { status: 'degraded', database: database.engine, databaseReachable: false, cachedManifests: servable };
      }
      request.log.warn({ err: probe.failure }, 'readiness check failed');
      throw new DependencyUnavailable('database');
    },
  );
};
