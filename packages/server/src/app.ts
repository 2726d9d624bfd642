import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { registerCertificates } from './certificates/certificate-module.js';
import { describeAreas } from './config/areas.js';
import type { CertificateConfig } from './config/certificate-config.js';
import type { Config } from './config/config.js';
import { AppError } from './http/app-error.js';
import { bearerTokenOf, requireBearerToken } from './http/bearer-token.js';
import { installErrorHandling } from './http/error-handler.js';
import { lazyChildLoggerFactory } from './http/lazy-child-logger.js';
import { loggerOptions } from './http/logger.js';
import { publicUrlResolver } from './http/public-url.js';
import { connectRateLimitRedis } from './http/rate-limit-redis.js';
import { AssetUploadService } from './ota/assets/asset-upload-service.js';
import { KyselyReleaseStore } from './ota/kysely-release-store.js';
import { createManifestDelivery, type ManifestDelivery } from './ota/manifest/manifest-delivery.js';
import type { ManifestService } from './ota/manifest/manifest-service.js';
import { ReleaseService } from './ota/release-service.js';
import type { ReleaseStore } from './ota/release-store.js';
import { assetsRoute } from './routes/api/updates/assets.js';
import { baselineFingerprintRoute } from './routes/api/updates/baseline-fingerprint.js';
import { manifestRoute } from './routes/api/updates/manifest.js';
import { releaseRoute } from './routes/api/updates/release.js';
import { releasesRoute } from './routes/api/updates/releases.js';
import { rollbackRoute } from './routes/api/updates/rollback.js';
import { developmentRoutes } from './routes/dev/development-routes.js';
import { healthRoutes } from './routes/health.js';
import { objectRoutes } from './routes/objects.js';
import { DEFAULT_WEB_ROOT, webAppRoutes } from './routes/web.js';
import type { ManifestSigner } from './signing/manifest-signer.js';
import { type Database, openMigratedDatabase } from './storage/database.js';
import { AssetDelivery } from './storage/objects/asset-delivery.js';
import { createObjectStorage } from './storage/objects/create-object-store.js';
import type { ObjectStore } from './storage/objects/object-store.js';

export interface FerryServices {
  database: Database;
  releaseStore: ReleaseStore;
  releases: ReleaseService;
  /** Object storage (local files or S3): update assets, certificate PDFs. */
  objects: ObjectStore;
  /** Throws when the OTA area is off (FERRY_AREAS): no manifests are served then. */
  manifests: ManifestService;
  /** Signs manifests; its certificatePem is what the apps embed. Throws when the OTA area is off. */
  signer: ManifestSigner;
}

declare module 'fastify' {
  interface FastifyInstance {
    ferry: FerryServices;
  }
}

export interface BuildAppOptions {
  config: Config;
  /** Pino options or an instance; defaults to JSON logs at config.logLevel. */
  logger?: FastifyServerOptions['loggerInstance'];
  now?: () => Date;
  /** The built web funnel served at `/`; defaults to apps/web/dist. */
  webRoot?: string;
}

/** The key a release-endpoint rate limit counts by: the token (hashed, never stored), else the address. */
const releaseRateKey = (request: Parameters<typeof bearerTokenOf>[0]): string => {
  const token = bearerTokenOf(request);
  return token ? `token:${createHash('sha256').update(token).digest('base64url')}` : `ip:${request.ip}`;
};

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const { areas } = config;
  if (areas.ota && !config.releaseToken) {
    throw new Error('buildApp needs config.releaseToken with the OTA area on; main.ts provides a development one.');
  }

  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: loggerOptions(config.logLevel) }),
    logController: new LogController({ disableRequestLogging: true }),
    // request.log is built on first use: most requests log nothing (http/lazy-child-logger.ts).
    childLoggerFactory: lazyChildLoggerFactory,
    bodyLimit: config.limits.releaseBodyBytes,
    trustProxy: config.production,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);

  // A keep-alive socket whose response finishes after close() began would stay open until the
  // keep-alive timeout (72 s) and hold up shutdown: end it as soon as its response is done.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Request logs at debug: at info they would dominate the manifest hot path.
  // Callback style: no promise per request on the hot path.
  app.addHook('onResponse', (request, reply, done) => {
    // Deferred: the response may still sit corked in the socket when 'finish' fires.
    if (closing) setImmediate(() => request.raw.socket?.end());
    if (request.log.level === 'debug' || request.log.level === 'trace') {
      request.log.debug(
        {
          method: request.method,
          url: request.routeOptions.url ?? 'unmatched',
          status: reply.statusCode,
          ms: reply.elapsedTime,
        },
        'request',
      );
    }
    done();
  });

  // External plugins first, then Ferry's own (fastify/demo's order).
  await app.register(swagger, {
    openapi: {
      info: { title: 'Ferry', version: '0.1.0', description: 'OTA release registry and certificate issuance' },
      components: { securitySchemes: { releaseToken: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  // REDIS_URL: counters shared by every instance. Without it they live in this process.
  const shared = config.limits.redis;
  const redis = shared && (await connectRateLimitRedis(shared.url, app.log));
  if (redis) app.addHook('onClose', async () => redis.close());
  await app.register(rateLimit, {
    global: false,
    ...(shared && redis
      ? {
          redis: redis.client,
          nameSpace: shared.keyPrefix,
          // Fail open: a Redis outage lets requests through unlimited rather than failing them with
          // 500 (decisions.md, "Shared rate limits"); rate-limit-redis.ts logs the outage.
          skipOnError: true,
        }
      : {}),
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'RATE_LIMITED', `Too many requests; retry in ${Math.ceil(context.ttl / 1000)} s.`, {
        limit: context.max,
      }),
  });

  const database = await openMigratedDatabase(config.database);
  app.addHook('onClose', async () => database.close());

  const releaseStore = new KyselyReleaseStore(database, options.now);
  // Manifest signing, cache and the cross-instance LISTEN exist only with the OTA area on.
  let manifestDelivery: ManifestDelivery | undefined;
  if (areas.ota && config.updates) {
    const delivery = createManifestDelivery({
      config: { updates: config.updates, database: config.database },
      database,
      releaseStore,
      log: app.log,
    });
    manifestDelivery = delivery;
    await delivery.start();
    app.addHook('onClose', async () => delivery.close());
  }
  const releases = new ReleaseService({
    store: releaseStore,
    log: app.log,
    now: options.now,
    onPublished: manifestDelivery?.onPublished,
  });
  const publicUrl = publicUrlResolver(app, config);
  const objectStorage = await createObjectStorage(config.objects, {
    objectsBaseUrl: () => `${publicUrl()}/objects`,
    log: app.log,
    now: options.now,
  });
  const otaOnly = (name: string): Error => new Error(`app.ferry.${name}: the OTA area is off (FERRY_AREAS)`);
  app.decorate('ferry', {
    database,
    releaseStore,
    releases,
    objects: objectStorage.store,
    get manifests(): ManifestService {
      if (!manifestDelivery) throw otaOnly('manifests');
      return manifestDelivery.service;
    },
    get signer(): ManifestSigner {
      if (!manifestDelivery) throw otaOnly('signer');
      return manifestDelivery.signer;
    },
  } satisfies FerryServices);

  // Health and objects serve every area; the rest only the areas that are on. A route of an area
  // that is off is never registered, so it answers the common 404 body.
  healthRoutes(app, database);
  if (manifestDelivery && config.releaseToken) {
    otaRoutes(app, { config, releaseToken: config.releaseToken, releases, manifestDelivery, objectStorage, publicUrl });
  }
  await app.register(objectRoutes, {
    store: objectStorage.store,
    signer: objectStorage.urlSigner,
    delivery: new AssetDelivery(objectStorage.store, app.log),
    uploads: objectStorage.local && { store: objectStorage.local, maxBytes: config.objects.uploadLimitBytes },
  });
  if (areas.certificates && config.certificates) {
    await certificateRoutes(app, {
      config,
      certificates: config.certificates,
      database,
      objects: objectStorage.store,
      now: options.now,
      webRoot: options.webRoot,
    });
  }

  app.log.info({ areas }, `areas: ${describeAreas(areas)}`);
  if (redis) app.log.info('rate limits are shared through Redis (REDIS_URL)');
  return app;
}

/** The OTA area: release registry, manifests and asset uploads under /api/updates. */
function otaRoutes(
  app: FastifyInstance,
  deps: {
    config: Config;
    releaseToken: string;
    releases: ReleaseService;
    manifestDelivery: ManifestDelivery;
    objectStorage: Awaited<ReturnType<typeof createObjectStorage>>;
    publicUrl: () => string;
  },
): void {
  const { config, releases, objectStorage, publicUrl } = deps;
  const requireReleaseToken = requireBearerToken(deps.releaseToken);
  releaseRoute(app, {
    service: releases,
    requireReleaseToken,
    bodyLimit: config.limits.releaseBodyBytes,
    perMinute: config.limits.releasePerMinute,
    rateKey: releaseRateKey,
  });
  baselineFingerprintRoute(app, { service: releases, perMinute: config.limits.baselinePerMinute });
  manifestRoute(app, { service: deps.manifestDelivery.service });
  assetsRoute(app, {
    service: new AssetUploadService({
      store: objectStorage.store,
      assetBaseUrl: () => config.objects.assetPublicBaseUrl ?? `${publicUrl()}/objects`,
      uploadLimitBytes: config.objects.uploadLimitBytes,
    }),
    requireReleaseToken,
    perMinute: config.limits.releasePerMinute,
    rateKey: releaseRateKey,
  });
  const releaseAdmin = {
    service: releases,
    requireReleaseToken,
    perMinute: config.limits.releasePerMinute,
    rateKey: releaseRateKey,
  };
  releasesRoute(app, releaseAdmin);
  rollbackRoute(app, releaseAdmin);
}

/**
 * The certificate area: issuance and assignment endpoints (/v2), the vendor clients or their
 * simulators, the retention sweep, the development sign-in the funnel uses, and the web funnel at `/`
 * (registered last: it is a catch-all).
 */
async function certificateRoutes(
  app: FastifyInstance,
  deps: {
    config: Config;
    certificates: CertificateConfig;
    database: Database;
    objects: ObjectStore;
    now: (() => Date) | undefined;
    webRoot: string | undefined;
  },
): Promise<void> {
  const { config, certificates } = deps;
  await registerCertificates(app, {
    config: certificates,
    production: config.production,
    database: deps.database,
    objects: deps.objects,
    releaseToken: config.releaseToken,
    now: deps.now,
  });
  developmentRoutes(app, {
    production: config.production,
    aesKey: app.certificates.aesKey,
    jwtSecret: app.certificates.jwtSecret,
    certifiedClaim: certificates.auth.certifiedClaim,
    issuer: certificates.auth.issuer,
    audience: certificates.auth.audience,
    now: deps.now,
  });
  await webAppRoutes(app, {
    root: deps.webRoot ?? DEFAULT_WEB_ROOT,
    production: config.production,
    aesKey: app.certificates.aesKey,
  });
}
