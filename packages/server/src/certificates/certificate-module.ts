import { randomBytes } from 'node:crypto';
import type { CertificateVendor } from '@ferry/contracts';
import type { VendorASimulator, VendorBSimulator } from '@ferry/dev-tools';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { requireCertifiedUser } from '../auth/require-certified-user.js';
import { requireOperator } from '../auth/require-operator.js';
import { createUserTokenVerifier } from '../auth/user-token-verifier.js';
import type { CertificateConfig } from '../config/certificate-config.js';
import { operatorAssignmentsRoute } from '../routes/v2/operator/assignments.js';
import { userAssignmentsRoute } from '../routes/v2/user/assignments.js';
import { familyRelationsRoute } from '../routes/v2/user/certificate/family-relations.js';
import type { CertificateRouteContext } from '../routes/v2/user/certificate/issue-route.js';
import { residentAbstractRoute } from '../routes/v2/user/certificate/resident-abstract.js';
import { residentCertificateRoute } from '../routes/v2/user/certificate/resident-certificate.js';
import type { Database } from '../storage/database.js';
import type { ObjectStore } from '../storage/objects/object-store.js';
import { VendorAClient } from '../vendors/vendor-a/client.js';
import { VendorBClient } from '../vendors/vendor-b/client.js';
import type { VendorClient } from '../vendors/vendor-client.js';
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

export interface CertificateModuleOptions {
  config: CertificateConfig;
  production: boolean;
  database: Database;
  objects: ObjectStore;
  /** The release token, the operator token's fallback outside production; undefined with the OTA area off. */
  releaseToken: string | undefined;
  now?: () => Date;
}

/**
 * Wires certificate issuance into the app: keys, user auth, the two vendor clients (and their
 * simulators outside production), services, routes, and the retention sweep.
 */
export async function registerCertificates(app: FastifyInstance, options: CertificateModuleOptions): Promise<void> {
  const { config } = options;
  const log = app.log;
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
  const simulatorLogger = log as unknown as Logger;
  let vendorA: VendorClient;
  if (config.vendorA.mode === 'account') {
    vendorA = new VendorAClient(config.vendorA.account);
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
    vendorA = new VendorAClient({ ...account, baseUrl });
  }
  let vendorB: VendorClient;
  if (config.vendorB.mode === 'account') {
    vendorB = new VendorBClient(config.vendorB.account);
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
    vendorB = new VendorBClient({
      baseUrl,
      tokenUrl: `${baseUrl}/oauth/token`,
      clientId: account.clientId,
      clientSecret: account.clientSecret,
      publicKey: account.publicKey,
    });
  }
  for (const [vendor, simulator] of Object.entries(simulators) as Array<[CertificateVendor, VendorASimulator]>) {
    log.warn({ vendor, url: simulator.url }, 'vendor simulator in use (no vendor account configured)');
  }

  const states = new KyselyAuthenticationStateStore(options.database);
  const issuances = new KyselyIssuanceStore(options.database);
  const assignments = new AssignmentService(new KyselyAssignmentStore(options.database), options.now);
  const issuance = new IssuanceService({
    vendors: { VENDOR_A: vendorA, VENDOR_B: vendorB },
    states,
    issuances,
    assignments,
    objects: options.objects,
    log,
    aesKey,
    disabledProviders: config.disabledProviders,
    authTtlSeconds: config.authTtlSeconds,
    vendorTimeoutMs: config.vendorTimeoutMs,
    urlTtlSeconds: config.urlTtlSeconds,
    retentionDays: config.retentionDays,
    now: options.now,
  });
  const retention = new CertificateRetention({ issuances, states, objects: options.objects, log, now: options.now });

  const verify = createUserTokenVerifier({ ...config.auth, secret: jwtSecret });
  const requireUser = requireCertifiedUser(verify, config.auth.certifiedClaim);
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
    operatorAssignmentsRoute(app, { service: assignments, requireOperator: requireOperator(operatorToken) });

  app.decorate('certificates', { issuance, assignments, retention, simulators, aesKey, jwtSecret });
  retention.start();
  app.addHook('onClose', async () => {
    retention.stop();
    await Promise.all(Object.values(simulators).map((simulator) => simulator.close()));
  });
}
