import type { FastifyInstance } from 'fastify';
import type { AuthFailures } from '../http/auth-failures.js';
import { requireBearerToken } from '../http/bearer-token.js';
import type { FerryMetrics } from '../metrics/ferry-metrics.js';

export interface MetricsRouteOptions {
  metrics: FerryMetrics;
  /** When set, a scrape must carry it as a bearer token (401 with the common body otherwise). */
  token: string | undefined;
  /** Where a wrong token is counted (the main app's, on either listener). */
  failures: AuthFailures;
}

/** `GET /metrics`: the Prometheus text exposition of this instance (docs/metrics.md). */
export function metricsRoute(app: FastifyInstance, options: MetricsRouteOptions): void {
  const { metrics, token, failures } = options;
  app.get(
    '/metrics',
    {
      // Not part of the API: an operator's scrape target, left out of the OpenAPI document.
      schema: { hide: true },
      ...(token
        ? {
            onRequest: requireBearerToken(
              token,
              { realm: 'ferry-metrics', noun: 'metrics token', variable: 'METRICS_TOKEN' },
              failures,
            ),
          }
        : {}),
    },
    async (_request, reply) => {
      const { contentType, text } = await metrics.exposition();
      return reply.header('content-type', contentType).header('cache-control', 'no-store').send(text);
    },
  );
}
