import { createPublicKey, type KeyObject } from 'node:crypto';
import { type CertificateVendor, PROVIDER_CODES, type ProviderCode } from '@ferry/contracts';
import { z } from 'zod';
import { ConfigError, type Env } from './env.js';

export interface VendorAAccount {
  baseUrl: string;
  userId: string;
  hkey: string;
  /** The 16-byte AES-128 key the vendor issued for its `...Enc` fields. */
  ekey: Buffer;
}

export interface VendorBAccount {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** The account's RSA public key; identity numbers are encrypted with it. */
  publicKey: KeyObject;
}

/** `simulator`: no account configured, so the built-in simulator stands in (never in production). */
export type VendorSetting<T> = { mode: 'account'; account: T } | { mode: 'simulator' };

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
  vendorA: VendorSetting<VendorAAccount>;
  vendorB: VendorSetting<VendorBAccount>;
  /** Providers switched off per vendor; they answer UNSUPPORTED_PROVIDER before any vendor call. */
  disabledProviders: Record<CertificateVendor, ProviderCode[]>;
  /** Lifetime of an authentication state, as the vendor keeps it. */
  authTtlSeconds: Record<CertificateVendor, number>;
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

const intFrom = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

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

const secret = (name: string, min: number) => z.string().min(min, `${name} must be at least ${min} characters`);
const httpUrl = (name: string) =>
  z.url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` }).transform((u) => u.replace(/\/+$/, ''));

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
  VENDOR_A_URL: httpUrl('VENDOR_A_URL').optional(),
  VENDOR_A_USER_ID: z.string().min(1).max(64).optional(),
  VENDOR_A_HKEY: secret('VENDOR_A_HKEY', 8).optional(),
  VENDOR_A_EKEY: z
    .string()
    .refine((value) => Buffer.byteLength(value, 'utf8') === 16, 'VENDOR_A_EKEY must be exactly 16 bytes')
    .optional(),
  VENDOR_A_DISABLED_PROVIDERS: providerList('VENDOR_A_DISABLED_PROVIDERS').optional(),
  VENDOR_A_AUTH_TTL_SECONDS: intFrom('VENDOR_A_AUTH_TTL_SECONDS', 10, 3600).optional(),
  VENDOR_B_URL: httpUrl('VENDOR_B_URL').optional(),
  VENDOR_B_TOKEN_URL: httpUrl('VENDOR_B_TOKEN_URL').optional(),
  VENDOR_B_CLIENT_ID: z.string().min(1).max(255).optional(),
  VENDOR_B_CLIENT_SECRET: secret('VENDOR_B_CLIENT_SECRET', 8).optional(),
  VENDOR_B_PUBLIC_KEY: z.string().min(1).optional(),
  VENDOR_B_DISABLED_PROVIDERS: providerList('VENDOR_B_DISABLED_PROVIDERS').optional(),
  VENDOR_B_AUTH_TTL_SECONDS: intFrom('VENDOR_B_AUTH_TTL_SECONDS', 10, 3600).optional(),
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
type CertificateEnv = z.infer<typeof CertificateEnv>;

/** Accepts the vendor's Base64 SPKI (how it is issued) or a PEM block. */
function parseRsaPublicKey(value: string): KeyObject {
  try {
    const key = value.includes('-----BEGIN')
      ? createPublicKey(value)
      : createPublicKey({ key: Buffer.from(value.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
    return key;
  } catch {
    throw new ConfigError('Invalid VENDOR_B_PUBLIC_KEY: must be an RSA public key (Base64 SPKI or PEM)');
  }
}

/** Either every variable of an account is set, or none (then the simulator stands in outside production). */
function vendorSetting<T>(
  env: CertificateEnv,
  production: boolean,
  required: Array<keyof CertificateEnv>,
  build: () => T,
): VendorSetting<T> {
  const present = required.filter((name) => env[name] !== undefined);
  if (present.length === 0) {
    if (production) {
      throw new ConfigError(
        `${required[0]} is required when NODE_ENV=production (with ${required.slice(1).join(', ')})`,
      );
    }
    return { mode: 'simulator' };
  }
  const missing = required.find((name) => env[name] === undefined);
  if (missing) throw new ConfigError(`${missing} is required because ${present[0]} is set`);
  return { mode: 'account', account: build() };
}

export function loadCertificateConfig(env: Env, production: boolean): CertificateConfig {
  const parsed = CertificateEnv.safeParse(env);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const variable = String(first?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid ${variable}: ${first?.message ?? 'invalid value'}`);
  }
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
  const vendorA = vendorSetting<VendorAAccount>(
    e,
    production,
    ['VENDOR_A_URL', 'VENDOR_A_USER_ID', 'VENDOR_A_HKEY', 'VENDOR_A_EKEY'],
    () => ({
      baseUrl: e.VENDOR_A_URL!,
      userId: e.VENDOR_A_USER_ID!,
      hkey: e.VENDOR_A_HKEY!,
      ekey: Buffer.from(e.VENDOR_A_EKEY!, 'utf8'),
    }),
  );
  const vendorB = vendorSetting<VendorBAccount>(
    e,
    production,
    ['VENDOR_B_URL', 'VENDOR_B_CLIENT_ID', 'VENDOR_B_CLIENT_SECRET', 'VENDOR_B_PUBLIC_KEY'],
    () => ({
      baseUrl: e.VENDOR_B_URL!,
      tokenUrl: e.VENDOR_B_TOKEN_URL ?? `${e.VENDOR_B_URL}/oauth/token`,
      clientId: e.VENDOR_B_CLIENT_ID!,
      clientSecret: e.VENDOR_B_CLIENT_SECRET!,
      publicKey: parseRsaPublicKey(e.VENDOR_B_PUBLIC_KEY!),
    }),
  );
  return {
    aesKey: e.CERT_AES_KEY ? Buffer.from(e.CERT_AES_KEY, 'base64') : undefined,
    auth: {
      secret: e.AUTH_JWT_SECRET,
      jwksUrl: e.AUTH_JWKS_URL,
      issuer: e.AUTH_JWT_ISSUER,
      audience: e.AUTH_JWT_AUDIENCE,
      certifiedClaim: e.AUTH_CERTIFIED_CLAIM ?? 'certified',
    },
    vendorA,
    vendorB,
    disabledProviders: {
      VENDOR_A: e.VENDOR_A_DISABLED_PROVIDERS ?? [],
      VENDOR_B: e.VENDOR_B_DISABLED_PROVIDERS ?? [],
    },
    authTtlSeconds: {
      VENDOR_A: e.VENDOR_A_AUTH_TTL_SECONDS ?? 300,
      VENDOR_B: e.VENDOR_B_AUTH_TTL_SECONDS ?? 270,
    },
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
