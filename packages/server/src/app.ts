import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { AppRegistry, appKeyVaultOf } from './apps/app-registry.js';
import { AppStore } from './apps/app-store.js';
import { operatorAccessPlugin } from './auth/operator-access-plugin.js';
import { certificatesPlugin } from './certificates/certificates-plugin.js';
import { describeAreas } from './config/areas.js';
import type { Config } from './config/config.js';
import { serverTimeoutOptions } from './config/http-config.js';
import { fastifyTrustProxy } from './config/trust-proxy.js';
import { clientErrorHandler } from './http/client-error.js';
import { limitConnectionsPerAddress } from './http/connection-limit.js';
import { frameworkErrors } from './http/error-handler.js';
import { FastPaths } from './http/fast-paths.js';
import { httpPlugin } from './http/http-plugin.js';
import { lazyChildLoggerFactory } from './http/lazy-child-logger.js';
import { loggerOptions } from './http/logger.js';
import { publicUrlResolver } from './http/public-url.js';
import { metricsPlugin } from './metrics/metrics-plugin.js';
import { otaPlugin } from './ota/ota-plugin.js';
import { healthPlugin } from './routes/health.js';
import { ServableWithoutDatabase, StartupWork } from './routes/readiness.js';
import { type Database, openMigratedDatabase } from './storage/database.js';
import { databasePlugin } from './storage/database-plugin.js';
import { objectsPlugin } from './storage/objects/objects-plugin.js';
import { SERVER_VERSION } from './version.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Requests answered before routing (http/fast-paths.ts). */
    fastPaths: FastPaths;
    /** What the instance does once it listens; /readyz answers 503 until it is done (routes/readiness.ts). */
    startupWork: StartupWork;
  }
}

export interface BuildAppOptions {
  config: Config;
  /** Pino options or an instance; defaults to JSON logs at config.logLevel. */
  logger?: FastifyServerOptions['loggerInstance'];
  now?: () => Date;
  /** The built web funnel served at `/`; defaults to the one shipped with the server. */
  webRoot?: string;
  /** The built release console served at /console/; defaults to the one shipped with the server. */
  consoleRoot?: string;
}

/**
 * The composition root: one plugin per concern, registered in dependency order. Each feature
 * plugin (objects, OTA, certificates) wires its own stores, services and routes; a feature whose
 * area is off (FERRY_AREAS) is not registered, so its routes answer the common 404.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  if (config.areas.ota && !config.releaseToken) {
    throw new Error('buildApp needs config.releaseToken with the OTA area on; main.ts provides a development one.');
  }
  // Before Fastify: opening may take longer than a plugin may take to load (database-plugin.ts).
  const newerMigrations: string[] = [];
  const database = await openMigratedDatabase(config.database, {
    onNewerMigrations: (names) => newerMigrations.push(...names),
  });
  try {
    return await assemble(options, database, newerMigrations);
  } catch (error) {
    await database.close();
    throw error;
  }
}

async function assemble(
  options: BuildAppOptions,
  database: Database,
  newerMigrations: string[],
): Promise<FastifyInstance> {
  const { config, now } = options;
  const { areas } = config;
  const fastPaths = new FastPaths();
  const app = Fastify({
    serverFactory: fastPaths.serverFactory,
    ...(options.logger ? { loggerInstance: options.logger } : { logger: loggerOptions(config.logLevel) }),
    logController: new LogController({ disableRequestLogging: true }),
    // request.log is built on first use: most requests log nothing (http/lazy-child-logger.ts).
    childLoggerFactory: lazyChildLoggerFactory,
    bodyLimit: config.limits.releaseBodyBytes,
    // TRUST_PROXY: which proxies' X-Forwarded-For names the client (request.ip); none by default.
    trustProxy: fastifyTrustProxy(config.http.trustProxy),
    ...serverTimeoutOptions(config.http),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    clientErrorHandler,
    frameworkErrors,
  });
  app.decorate('fastPaths', fastPaths);
  limitConnectionsPerAddress(app.server, config.http.maxConnectionsPerAddress);
  // A closing server answers through Fastify, which refuses new requests with 503.
  app.addHook('preClose', async () => fastPaths.clear());
  const publicUrl = publicUrlResolver(app, config);
  const objectsBaseUrl = () => `${publicUrl()}/objects`;

  await app.register(httpPlugin, {
    limits: config.limits,
    bodyTimeoutMs: config.http.bodyTimeoutMs,
    version: SERVER_VERSION,
  });
  await app.register(databasePlugin, { database, newerMigrations });
  // app.metrics, before every plugin that counts into it.
  await app.register(metricsPlugin, {
    config: config.metrics,
    areas,
    vendorLabels: config.certificates?.vendors.map(({ definition }) => definition.metricsLabel),
  });
  // Readiness asks the areas what they can serve while the database is down, and waits for the
  // work they do once the instance listens (routes/readiness.ts).
  const servableWithoutDatabase = new ServableWithoutDatabase();
  const startupWork = new StartupWork();
  app.decorate('startupWork', startupWork);
  app.addHook('onListen', async () => {
    void startupWork.start();
  });
  await app.register(healthPlugin, { servable: servableWithoutDatabase, startup: startupWork });
  await app.register(objectsPlugin, {
    config: config.objects,
    objectsBaseUrl,
    uploadTimeoutMs: config.http.uploadTimeoutMs,
    now,
  });
  if (areas.ota && config.updates && config.releaseToken) {
    // The apps (docs/apps.md): who exists for operator access, and each app's signer for the OTA area.
    const apps = new AppRegistry(new AppStore(app.database.db), appKeyVaultOf(config.updates), app.log);
    // Before the OTA routes: each names the operator action it needs (auth/operator-access.ts).
    await app.register(operatorAccessPlugin, {
      apps,
      releaseToken: config.releaseToken,
      publicUrl: config.publicUrl,
      oidc: config.consoleOidc,
      perMinute: config.limits.releasePerMinute,
      now,
    });
    await app.register(otaPlugin, {
      apps,
      updates: config.updates,
      releaseToken: config.releaseToken,
      limits: config.limits,
      objects: config.objects,
      objectsBaseUrl,
      servableWithoutDatabase,
      startupWork,
      now,
      consoleRoot: options.consoleRoot,
    });
  }
  if (areas.certificates && config.certificates) {
    await app.register(certificatesPlugin, {
      config: config.certificates,
      production: config.production,
      releaseToken: config.releaseToken,
      now,
      webRoot: options.webRoot,
    });
  }
  app.log.info({ areas }, `areas: ${describeAreas(areas)}`);
  return app;
}
