import { PROVIDER_CODES, type ProviderCode } from '@ferry/contracts';
import { z } from 'zod';
import { BUILT_IN_VENDORS } from '../vendors/built-in-vendors.js';
import type { VendorDefinition } from '../vendors/vendor-definition.js';
import type { VendorRegistry } from '../vendors/vendor-registry.js';
import { ConfigError, type Env } from './env.js';
import { httpUrl, intFrom, secret } from './variable-schemas.js';

/** One vendor as configured: its definition, its account or simulator, and the settings every vendor has. */
export interface ConfiguredVendor {
  definition: VendorDefinition;
  /** `simulator`: no account configured, so its simulator stands in (never in production). */
  connection: { mode: 'account'; account: unknown } | { mode: 'simulator' };
  /** Providers switched off (`<id>_DISABLED_PROVIDERS`); they answer UNSUPPORTED_PROVIDER before any vendor call. */
  disabledProviders: ProviderCode[];
  /** Lifetime of an authentication state, as the vendor keeps it (`<id>_AUTH_TTL_SECONDS`). */
  authTtlSeconds: number;
}

export interface CertificateConfig {
  /** The clients' shared AES-256 key. Undefined only in development before defaults are applied. */
  aesKey: Buffer | undefined;
  auth: {
    secret?: string;
    jwksUrl?: string;
    issuer?: string;
    audience?: string;
    certifiedClaim: string;
  };
  /** The registry's vendors, in its order. */
  vendors: ConfiguredVendor[];
  vendorTimeoutMs: number;
  /** How long a duplicate of a second call in flight waits for it (default: the vendor timeout). */
  duplicateWaitMs: number;
  simulatorApprovalDelayMs: number | 'never';
  ratePerMinute: number;
  bodyLimitBytes: number;
  urlTtlSeconds: number;
  retentionDays: number;
  /** Bearer token of the operator endpoints (assignments). Unset in production: they are not mounted. */
  operatorToken: string | undefined;
}

const providerList = (name: string) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((code) => code.trim())
        .filter(Boolean),
    )
    .refine(
      (codes) => codes.every((code) => (PROVIDER_CODES as readonly string[]).includes(code)),
      `${name} must be a comma-separated list of ${PROVIDER_CODES.join(', ')}`,
    )
    .transform((codes) => codes as ProviderCode[]);

const CertificateEnv = z.object({
  CERT_AES_KEY: z
    .string()
    .refine(
      (value) => /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32,
      'CERT_AES_KEY must be the Base64 of exactly 32 bytes',
    )
    .optional(),
  AUTH_JWT_SECRET: secret('AUTH_JWT_SECRET', 32).optional(),
  AUTH_JWKS_URL: httpUrl('AUTH_JWKS_URL').optional(),
  AUTH_JWT_ISSUER: z.string().min(1).optional(),
  AUTH_JWT_AUDIENCE: z.string().min(1).optional(),
  AUTH_CERTIFIED_CLAIM: z
    .string()
    // Namespaced claims (https://example.com/certified) are common with hosted identity providers.
    .regex(/^[\x21-\x7e]{1,200}$/, 'AUTH_CERTIFIED_CLAIM must be a claim name without spaces')
    .optional(),
  VENDOR_TIMEOUT_MS: intFrom('VENDOR_TIMEOUT_MS', 50, 600_000).optional(),
  CERT_DUPLICATE_WAIT_MS: intFrom('CERT_DUPLICATE_WAIT_MS', 0, 600_000).optional(),
  VENDOR_SIM_APPROVAL_DELAY_MS: z
    .union([z.literal('never'), intFrom('VENDOR_SIM_APPROVAL_DELAY_MS', 0, 3_600_000)])
    .optional(),
  CERT_RATE_LIMIT_PER_MINUTE: intFrom('CERT_RATE_LIMIT_PER_MINUTE', 1, 1_000_000).optional(),
  CERT_BODY_LIMIT_BYTES: intFrom('CERT_BODY_LIMIT_BYTES', 1024, 1024 * 1024).optional(),
  CERT_URL_TTL_SECONDS: intFrom('CERT_URL_TTL_SECONDS', 10, 7 * 24 * 3600).optional(),
  CERT_RETENTION_DAYS: intFrom('CERT_RETENTION_DAYS', 1, 3650).optional(),
  OPERATOR_TOKEN: secret('OPERATOR_TOKEN', 16).optional(),
});

/** The variables every vendor has, named after its id. */
const settingsOf = (id: string) => ({
  disabledProviders: `${id}_DISABLED_PROVIDERS`,
  authTtlSeconds: `${id}_AUTH_TTL_SECONDS`,
});

const vendorVariables = (definition: VendorDefinition): z.ZodRawShape => {
  const names = settingsOf(definition.id);
  return {
    ...definition.config.variables,
    [names.disabledProviders]: providerList(names.disabledProviders).optional(),
    [names.authTtlSeconds]: intFrom(names.authTtlSeconds, 10, 3600).optional(),
  };
};

const firstProblem = (error: z.ZodError): ConfigError => {
  const first = error.issues[0];
  const variable = String(first?.path[0] ?? 'environment');
  return new ConfigError(`Invalid ${variable}: ${first?.message ?? 'invalid value'}`);
};

/**
 * A vendor's account from variables that set all of it: how a simulator standing in for the vendor
 * is connected (its definition in @ferry/dev-tools says which variables point a server at it).
 */
export function vendorAccount(definition: VendorDefinition, env: Env): unknown {
  const parsed = z.object(definition.config.variables).safeParse(env);
  if (!parsed.success) throw firstProblem(parsed.error);
  const missing = definition.config.required.find((name) => parsed.data[name] === undefined);
  if (missing) throw new ConfigError(`${missing} is required`);
  return definition.config.account(parsed.data);
}

/** Either every variable of an account is set, or none (then the simulator stands in outside production). */
function connectionOf(
  definition: VendorDefinition,
  values: Readonly<Record<string, unknown>>,
  production: boolean,
): ConfiguredVendor['connection'] {
  const required = definition.config.required;
  const present = required.filter((name) => values[name] !== undefined);
  if (present.length === 0) {
    if (production) {
      throw new ConfigError(
        `${required[0]} is required when NODE_ENV=production (with ${required.slice(1).join(', ')})`,
      );
    }
    return { mode: 'simulator' };
  }
  const missing = required.find((name) => values[name] === undefined);
  if (missing) throw new ConfigError(`${missing} is required because ${present[0]} is set`);
  return { mode: 'account', account: definition.config.account(values) };
}

/** The certificate area's variables, with those of every vendor of the registry (the built-in ones by default). */
export function loadCertificateConfig(
  env: Env,
  production: boolean,
  registry: VendorRegistry = BUILT_IN_VENDORS,
): CertificateConfig {
  const parsed = CertificateEnv.safeParse(env);
  if (!parsed.success) throw firstProblem(parsed.error);
  const vendorShape: z.ZodRawShape = Object.assign({}, ...registry.definitions.map(vendorVariables));
  const vendorValues = z.object(vendorShape).safeParse(env);
  if (!vendorValues.success) throw firstProblem(vendorValues.error);
  const e = parsed.data;
  if (production && !e.CERT_AES_KEY) {
    throw new ConfigError('CERT_AES_KEY is required when NODE_ENV=production (Base64 of the 32-byte AES key)');
  }
  if (e.AUTH_JWT_SECRET && e.AUTH_JWKS_URL) {
    throw new ConfigError('Invalid AUTH_JWKS_URL: set either AUTH_JWT_SECRET or AUTH_JWKS_URL, not both');
  }
  if (production && !e.AUTH_JWT_SECRET && !e.AUTH_JWKS_URL) {
    throw new ConfigError('AUTH_JWT_SECRET or AUTH_JWKS_URL is required when NODE_ENV=production');
  }
  const values: Readonly<Record<string, unknown>> = vendorValues.data;
  const vendors = registry.definitions.map((definition): ConfiguredVendor => {
    const names = settingsOf(definition.id);
    return {
      definition,
      connection: connectionOf(definition, values, production),
      disabledProviders: (values[names.disabledProviders] as ProviderCode[] | undefined) ?? [],
      authTtlSeconds: (values[names.authTtlSeconds] as number | undefined) ?? definition.config.defaultAuthTtlSeconds,
    };
  });
  return {
    aesKey: e.CERT_AES_KEY ? Buffer.from(e.CERT_AES_KEY, 'base64') : undefined,
    auth: {
      secret: e.AUTH_JWT_SECRET,
      jwksUrl: e.AUTH_JWKS_URL,
      issuer: e.AUTH_JWT_ISSUER,
      audience: e.AUTH_JWT_AUDIENCE,
      certifiedClaim: e.AUTH_CERTIFIED_CLAIM ?? 'certified',
    },
    vendors,
    vendorTimeoutMs: e.VENDOR_TIMEOUT_MS ?? 30_000,
    duplicateWaitMs: e.CERT_DUPLICATE_WAIT_MS ?? e.VENDOR_TIMEOUT_MS ?? 30_000,
    simulatorApprovalDelayMs: e.VENDOR_SIM_APPROVAL_DELAY_MS ?? 3000,
    ratePerMinute: e.CERT_RATE_LIMIT_PER_MINUTE ?? 10,
    bodyLimitBytes: e.CERT_BODY_LIMIT_BYTES ?? 16 * 1024,
    urlTtlSeconds: e.CERT_URL_TTL_SECONDS ?? 600,
    retentionDays: e.CERT_RETENTION_DAYS ?? 7,
    operatorToken: e.OPERATOR_TOKEN,
  };
}
