import { randomBytes } from 'node:crypto';
import type { CertificateVendor } from '@ferry/contracts';
import type { VendorASimulator, VendorBSimulator } from '@ferry/dev-tools';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { requireCertifiedUser } from '../auth/require-certified-user.js';
import { requireOperator } from '../auth/require-operator.js';
import { createUserTokenVerifier } from '../auth/user-token-verifier.js';
import type { CertificateConfig } from '../config/certificate-config.js';
import { developmentRoutes } from '../routes/dev/development-routes.js';
import { operatorAssignmentsRoute } from '../routes/v2/operator/assignments.js';
import { userAssignmentsRoute } from '../routes/v2/user/assignments.js';
import { familyRelationsRoute } from '../routes/v2/user/certificate/family-relations.js';
import type { CertificateRouteContext } from '../routes/v2/user/certificate/issue-route.js';
import { residentAbstractRoute } from '../routes/v2/user/certificate/resident-abstract.js';
import { residentCertificateRoute } from '../routes/v2/user/certificate/resident-certificate.js';
import { DEFAULT_WEB_ROOT, webAppRoutes } from '../routes/web.js';
import { VendorAClient } from '../vendors/vendor-a/client.js';
import { VendorBClient } from '../vendors/vendor-b/client.js';
import type { VendorClient, VendorTiming } from '../vendors/vendor-client.js';
import { AssignmentService } from './assignment-service.js';
import { CertificateRetention } from './certificate-retention.js';
import { IssuanceService } from './issuance-service.js';
import { KyselyAssignmentStore } from './kysely-assignment-store.js';
import { KyselyAuthenticationStateStore } from './kysely-authentication-state-store.js';
import { KyselyIssuanceStore } from './kysely-issuance-store.js';

export interface CertificateModule {
  issuance: IssuanceService;
  assignments: AssignmentService;
  retention: CertificateRetention;
  /** The in-process simulators, when a vendor has no configured account (never in production). */
  simulators: { VENDOR_A?: VendorASimulator; VENDOR_B?: VendorBSimulator };
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
 * The certificate area, wired in one place: keys, user auth, the two vendor clients (and their
 * simulators outside production), services, the /v2 routes, the retention sweep, the development
 * sign-in the funnel uses, and the web funnel at `/` (last: it is a catch-all). Reads the database
 * and the object store the plugins before it provide; `app.certificates` is what start-up
 * announces (the keys and simulators in use).
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
    const timingOf =
      (vendor: CertificateVendor): VendorTiming =>
      (operation, seconds) =>
        metrics.vendorRequest(vendor, operation, seconds);
    const simulatorLogger = log as unknown as Logger;
    let vendorA: VendorClient;
    if (config.vendorA.mode === 'account') {
      vendorA = new VendorAClient(config.vendorA.account, timingOf('VENDOR_A'));
    } else {
      // Loaded only here: a server with vendor accounts never loads the simulators.
      const { generateVendorAAccount, VendorASimulator } = await import('@ferry/dev-tools');
      const account = generateVendorAAccount();
      const simulator = new VendorASimulator(account, {
        ttlMs: config.authTtlSeconds.VENDOR_A * 1000,
        approvalDelayMs: config.simulatorApprovalDelayMs,
        logger: simulatorLogger,
      });
      const baseUrl = await simulator.listen();
      simulators.VENDOR_A = simulator;
      vendorA = new VendorAClient({ ...account, baseUrl }, timingOf('VENDOR_A'));
    }
    let vendorB: VendorClient;
    if (config.vendorB.mode === 'account') {
      vendorB = new VendorBClient(config.vendorB.account, timingOf('VENDOR_B'));
    } else {
      const { generateVendorBAccount, VendorBSimulator } = await import('@ferry/dev-tools');
      const account = await generateVendorBAccount();
      const simulator = new VendorBSimulator(account, {
        ttlMs: config.authTtlSeconds.VENDOR_B * 1000,
        approvalDelayMs: config.simulatorApprovalDelayMs,
        logger: simulatorLogger,
      });
      const baseUrl = await simulator.listen();
      simulators.VENDOR_B = simulator;
      vendorB = new VendorBClient(
        {
          baseUrl,
          tokenUrl: `${baseUrl}/oauth/token`,
          clientId: account.clientId,
          clientSecret: account.clientSecret,
          publicKey: account.publicKey,
        },
        timingOf('VENDOR_B'),
      );
    }
    for (const [vendor, simulator] of Object.entries(simulators) as Array<[CertificateVendor, VendorASimulator]>) {
      log.warn({ vendor, url: simulator.url }, 'vendor simulator in use (no vendor account configured)');
    }

    const states = new KyselyAuthenticationStateStore(database);
    const issuances = new KyselyIssuanceStore(database);
    const assignments = new AssignmentService(new KyselyAssignmentStore(database), options.now);
    const issuance = new IssuanceService({
      vendors: { VENDOR_A: vendorA, VENDOR_B: vendorB },
      states,
      issuances,
      assignments,
      objects: objectStore,
      log,
      aesKey,
      disabledProviders: config.disabledProviders,
      authTtlSeconds: config.authTtlSeconds,
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
      // Created once so the three endpoints share one store: a user has one budget across them.
      // Keyed by the user the preceding onRequest hook authenticated.
      rateLimit: app.rateLimit({
        max: config.ratePerMinute,
        timeWindow: '1 minute',
        keyGenerator: (request) => `cert-user:${request.authUser?.userId ?? request.ip}`,
      }),
      bodyLimitBytes: config.bodyLimitBytes,
    };
    residentCertificateRoute(app, context);
    residentAbstractRoute(app, context);
    familyRelationsRoute(app, context);
    userAssignmentsRoute(app, { service: assignments, requireUser });
    // Outside production the release token doubles as operator token, so a fresh checkout can create
    // assignments; production mounts the endpoint only with its own OPERATOR_TOKEN.
    const operatorToken = config.operatorToken ?? (options.production ? undefined : options.releaseToken);
    if (operatorToken)
      operatorAssignmentsRoute(app, {
        service: assignments,
        requireOperator: requireOperator(operatorToken, app.authFailures),
      });

    app.decorate('certificates', { issuance, assignments, retention, simulators, aesKey, jwtSecret });
    retention.start();
    app.addHook('onClose', async () => {
      retention.stop();
      await Promise.all(Object.values(simulators).map((simulator) => simulator.close()));
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
