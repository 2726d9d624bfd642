import { randomBytes } from 'node:crypto';
import { assignmentSchemas, authenticationSchemas, certificateRequestSchemas } from '@ferry/contracts';
import type { VendorSimulator } from '@ferry/dev-tools';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { requireCertifiedUser } from '../auth/require-certified-user.js';
import { requireOperator } from '../auth/require-operator.js';
import { createUserTokenVerifier } from '../auth/user-token-verifier.js';
import { type CertificateConfig, type ConfiguredVendor, vendorAccount } from '../config/certificate-config.js';
import { developmentRoutes } from '../routes/dev/development-routes.js';
import { operatorAssignmentsRoute } from '../routes/v2/operator/assignments.js';
import { userAssignmentsRoute } from '../routes/v2/user/assignments.js';
import { certificateAuthenticationRoute } from '../routes/v2/user/certificate/authentication-route.js';
import { certificateRoutes } from '../routes/v2/user/certificate/certificate-routes.js';
import type { CertificateRouteContext } from '../routes/v2/user/certificate/issue-route.js';
import { DEFAULT_WEB_ROOT, webAppRoutes } from '../routes/web.js';
import type { VendorClient, VendorTiming } from '../vendors/vendor-client.js';
import { AssignmentService } from './assignment-service.js';
import { CertificateRetention } from './certificate-retention.js';
import { IssuanceService, type IssuingVendor } from './issuance-service.js';
import { KyselyAssignmentStore } from './kysely-assignment-store.js';
import { KyselyAuthenticationStateStore } from './kysely-authentication-state-store.js';
import { KyselyIssuanceStore } from './kysely-issuance-store.js';

export interface CertificateModule {
  issuance: IssuanceService;
  assignments: AssignmentService;
  retention: CertificateRetention;
  /** The in-process simulators by vendor id, for the vendors with no configured account (never in production). */
  simulators: Partial<Record<string, VendorSimulator>>;
  /** The AES key in use: configured, or generated for this process outside production. */
  aesKey: Buffer;
  /** The HS256 secret user tokens are verified with, when one is used (not with JWKS). */
  jwtSecret: string | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    certificates: CertificateModule;
  }
}

export interface CertificatesPluginOptions {
  config: CertificateConfig;
  production: boolean;
  /** The release token, the operator token's fallback outside production; undefined with the OTA area off. */
  releaseToken: string | undefined;
  now?: () => Date;
  /** The built web funnel served at `/`; defaults to the one shipped with the server. */
  webRoot?: string;
}

/**
 * The client of one configured vendor: over its account, or over its simulator (started here, in
 * this process, when it has none; never in production).
 */
async function connectVendor(
  vendor: ConfiguredVendor,
  context: { timing: VendorTiming; approvalDelayMs: number | 'never'; logger: Logger },
): Promise<{ client: VendorClient; simulator?: VendorSimulator }> {
  const { definition, connection } = vendor;
  if (connection.mode === 'account') return { client: definition.createClient(connection.account, context.timing) };
  const simulated = await definition.simulator();
  const account = await simulated.account();
  const simulator = simulated.create(account, {
    ttlMs: vendor.authTtlSeconds * 1000,
    approvalDelayMs: context.approvalDelayMs,
    logger: context.logger,
  });
  const url = await simulator.listen();
  // The simulator hands out the variables that point a server at it, read as a configured account is.
  const client = definition.createClient(vendorAccount(definition, simulated.env(url, account)), context.timing);
  return { client, simulator };
}

/**
 * The certificate area, wired in one place: keys, user auth, a client per vendor of the registry
 * (and their simulators outside production), services, the /v2 routes, the retention sweep, the
 * development sign-in the funnel uses, and the web funnel at `/` (last: it is a catch-all). Reads
 * the database and the object store the plugins before it provide; `app.certificates` is what
 * start-up announces (the keys and simulators in use).
 */
export const certificatesPlugin = fp<CertificatesPluginOptions>(
  async (app, options) => {
    const { config } = options;
    const log = app.log;
    const { database, objectStore } = app;
    // Production configuration guarantees keys (certificate-config.ts); without them here we are in
    // development or tests, where keys living as long as this process are fine.
    let aesKey = config.aesKey;
    if (!aesKey) {
      aesKey = randomBytes(32);
      log.warn('CERT_AES_KEY is not set: using a key generated for this process only');
    }
    let jwtSecret = config.auth.secret;
    if (!jwtSecret && !config.auth.jwksUrl) {
      jwtSecret = randomBytes(32).toString('base64url');
      log.warn('AUTH_JWT_SECRET is not set: user tokens are verified with a secret generated for this process only');
    }

    const simulators: CertificateModule['simulators'] = {};
    const { metrics } = app;
    const vendors = new Map<string, IssuingVendor>();
    for (const vendor of config.vendors) {
      const { definition } = vendor;
      const { client, simulator } = await connectVendor(vendor, {
        timing: (operation, seconds) => metrics.vendorRequest(definition.metricsLabel, operation, seconds),
        approvalDelayMs: config.simulatorApprovalDelayMs,
        logger: log as unknown as Logger,
      });
      if (simulator) {
        simulators[definition.id] = simulator;
        log.warn(
          { vendor: definition.id, url: simulator.url },
          'vendor simulator in use (no vendor account configured)',
        );
      }
      vendors.set(definition.id, {
        client,
        secondCall: definition.secondCall,
        metricsLabel: definition.metricsLabel,
        disabledProviders: vendor.disabledProviders,
        authTtlSeconds: vendor.authTtlSeconds,
      });
    }
    // The API's schemas name the vendors this server has: its registry's.
    const facts = config.vendors.map(({ definition }) => ({ id: definition.id, secondCall: definition.secondCall }));
    const assignmentApi = assignmentSchemas(facts);

    const states = new KyselyAuthenticationStateStore(database);
    const issuances = new KyselyIssuanceStore(database);
    const assignments = new AssignmentService(new KyselyAssignmentStore(database), options.now);
    const issuance = new IssuanceService({
      vendors,
      states,
      issuances,
      assignments,
      objects: objectStore,
      log,
      aesKey,
      vendorTimeoutMs: config.vendorTimeoutMs,
      duplicateWaitMs: config.duplicateWaitMs,
      urlTtlSeconds: config.urlTtlSeconds,
      retentionDays: config.retentionDays,
      now: options.now,
      metrics,
    });
    const retention = new CertificateRetention({ issuances, states, objects: objectStore, log, now: options.now });

    const verify = createUserTokenVerifier({ ...config.auth, secret: jwtSecret });
    const requireUser = requireCertifiedUser(verify, config.auth.certifiedClaim, app.authFailures);
    const context: CertificateRouteContext = {
      service: issuance,
      requireUser,
      // Created once so the certificate endpoints share one store: a user has one budget across them.
      // Keyed by the user the preceding onRequest hook authenticated.
      rateLimit: app.rateLimit({
        max: config.ratePerMinute,
        timeWindow: '1 minute',
        keyGenerator: (request) => `cert-user:${request.authUser?.userId ?? request.ip}`,
      }),
      bodyLimitBytes: config.bodyLimitBytes,
    };
    certificateRoutes(app, context, certificateRequestSchemas(facts));
    certificateAuthenticationRoute(app, { service: issuance, requireUser, schemas: authenticationSchemas(facts) });
    userAssignmentsRoute(app, { service: assignments, requireUser, schemas: assignmentApi });
    // Outside production the release token doubles as operator token, so a fresh checkout can create
    // assignments; production mounts the endpoint only with its own OPERATOR_TOKEN.
    const operatorToken = config.operatorToken ?? (options.production ? undefined : options.releaseToken);
    if (operatorToken)
      operatorAssignmentsRoute(app, {
        service: assignments,
        requireOperator: requireOperator(operatorToken, app.authFailures),
        schemas: assignmentApi,
      });

    app.decorate('certificates', { issuance, assignments, retention, simulators, aesKey, jwtSecret });
    retention.start();
    app.addHook('onClose', async () => {
      retention.stop();
      await Promise.all(Object.values(simulators).map((simulator) => simulator?.close()));
    });

    developmentRoutes(app, {
      production: options.production,
      aesKey,
      jwtSecret,
      certifiedClaim: config.auth.certifiedClaim,
      issuer: config.auth.issuer,
      audience: config.auth.audience,
      now: options.now,
    });
    await webAppRoutes(app, { root: options.webRoot ?? DEFAULT_WEB_ROOT, production: options.production, aesKey });
  },
  { name: 'ferry-certificates', dependencies: ['ferry-http', 'ferry-database', 'ferry-metrics', 'ferry-objects'] },
);
