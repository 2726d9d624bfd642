import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import fp from 'fastify-plugin';
import type { Areas } from '../config/areas.js';
import type { MetricsConfig } from '../config/metrics-config.js';
import { clientErrorHandler } from '../http/client-error.js';
import { frameworkErrors, installErrorHandling } from '../http/error-handler.js';
import { metricsRoute } from '../routes/metrics.js';
import { FerryMetrics } from './ferry-metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Prometheus metrics every feature counts into (docs/metrics.md); exported only as configured. */
    metrics: FerryMetrics;
    /** The separate metrics listener (METRICS_PORT) once the app is ready; null when there is none. */
    metricsListener: { address(): AddressInfo | undefined } | null;
  }
}

export interface MetricsPluginOptions {
  config: MetricsConfig;
  areas: Areas;
  /** The metrics labels of the vendors configured (their definitions'); default: the built-in vendors'. */
  vendorLabels?: readonly string[];
}

/**
 * Metrics, wired in one place: `app.metrics` for the plugins registered after it (they count into
 * it whether or not anything is exported), the database pool gauges, and `/metrics` where the
 * configuration puts it: on the main port behind METRICS_TOKEN, on a listener of its own
 * (METRICS_PORT, started with the app and closed with it), or nowhere (prom-client is then never
 * loaded).
 */
export const metricsPlugin = fp<MetricsPluginOptions>(
  async (app, options) => {
    const metrics = new FerryMetrics({ areas: options.areas, vendorLabels: options.vendorLabels });
    const { database } = app;
    metrics.observeDatabase({
      engine: database.engine,
      ...(database.pool ? { pools: { main: database.pool } } : {}),
    });
    metrics.observeRateLimitBreaker(() => app.rateLimitBreaker?.state.phase);
    app.decorate('metrics', metrics);

    const { config } = options;
    if (config.exposure === 'off') {
      app.decorate('metricsListener', null);
      app.log.info('metrics: not served (set METRICS_TOKEN or METRICS_PORT to serve /metrics)');
      return;
    }
    // prom-client is loaded only by an instance that serves /metrics, and its process metrics
    // (GC, event loop) count from start-up.
    await metrics.prepareExposition();
    if (config.exposure === 'main') {
      app.decorate('metricsListener', null);
      metricsRoute(app, { metrics, token: config.token, failures: app.authFailures });
      app.log.info('metrics: /metrics on the main port, behind METRICS_TOKEN');
      return;
    }

    const listener = metricsListener(app, metrics, config.token);
    let started = false;
    app.decorate('metricsListener', {
      address: () => (started ? (listener.server.address() as AddressInfo) : undefined),
    });
    // Started with the app (listen() waits for onReady), so a port in use stops start-up.
    app.addHook('onReady', async () => {
      await listener.listen({ port: config.port, host: config.host });
      started = true;
      const { port } = listener.server.address() as AddressInfo;
      app.log.info({ host: config.host, port }, `metrics: /metrics on ${config.host}:${port}`);
    });
    app.addHook('onClose', async () => listener.close());
  },
  { name: 'ferry-metrics', dependencies: ['ferry-http', 'ferry-database'] },
);

/** The separate listener: `/metrics` only, with the same error bodies as the main port. */
function metricsListener(app: FastifyInstance, metrics: FerryMetrics, token: string | undefined): FastifyInstance {
  const listener = Fastify({
    loggerInstance: app.log,
    logController: new LogController({ disableRequestLogging: true }),
    // A scraper's keep-alive connection must not hold up shutdown.
    forceCloseConnections: true,
    clientErrorHandler,
    frameworkErrors,
  });
  installErrorHandling(listener);
  // A wrong token there counts with the main port's, by the scraper's own address (no proxy in front).
  metricsRoute(listener, { metrics, token, failures: app.authFailures });
  return listener;
}
