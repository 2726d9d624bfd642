import path from 'node:path';
import { z } from 'zod';
import type { VendorRegistry } from '../vendors/vendor-registry.js';
import { type Areas, parseAreas } from './areas.js';
import { type CertificateConfig, loadCertificateConfig } from './certificate-config.js';
import { type ConsoleOidcConfig, loadConsoleOidcConfig } from './console-oidc-config.js';
import { ConfigError, type Env } from './env.js';
import { type HttpConfig, loadHttpConfig } from './http-config.js';
import { loadMetricsConfig, type MetricsConfig } from './metrics-config.js';
import { loadObjectsConfig, type ObjectsConfig } from './object-store-config.js';
import { loadUpdatesConfig, type UpdatesConfig } from './updates-config.js';

export { ConfigError, type Env } from './env.js';

const intFrom = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

const EnvSchema = z.object({
  NODE_ENV: z.string().optional(),
  PORT: intFrom('PORT', 0, 65535).optional(),
  HOST: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  SHUTDOWN_GRACE_MS: intFrom('SHUTDOWN_GRACE_MS', 0, 3_600_000).optional(),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)')
    .optional(),
  DATABASE_POOL_SIZE: intFrom('DATABASE_POOL_SIZE', 1, 1000).optional(),
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_DIRECT_URL must be a postgres:// URL')
    .optional(),
  OTA_RELEASE_TOKEN: z.string().min(16, 'OTA_RELEASE_TOKEN must be at least 16 characters').optional(),
  RELEASE_BODY_LIMIT_BYTES: intFrom('RELEASE_BODY_LIMIT_BYTES', 1024, 64 * 1024 * 1024).optional(),
  RELEASE_RATE_LIMIT_PER_MINUTE: intFrom('RELEASE_RATE_LIMIT_PER_MINUTE', 1, 1_000_000).optional(),
  BASELINE_RATE_LIMIT_PER_MINUTE: intFrom('BASELINE_RATE_LIMIT_PER_MINUTE', 1, 1_000_000).optional(),
  AUTH_FAILURE_LIMIT_PER_MINUTE: intFrom('AUTH_FAILURE_LIMIT_PER_MINUTE', 1, 1_000_000).optional(),
  REDIS_URL: z
    .string()
    .regex(
      /^rediss?:\/\/[^/?#]/,
      'REDIS_URL must be a redis:// (or rediss://) URL (leave it unset for per-instance limits)',
    )
    .refine((value) => URL.canParse(value), 'REDIS_URL must be a valid redis:// URL')
    .optional(),
});

/**
 * When the rate-limit Redis stops answering (http/redis-breaker.ts): after `tripAfter` command
 * timeouts in a row it is left alone for `coolDownMs`, then probed with one command.
 */
export interface RedisBreakerPolicy {
  tripAfter: number;
  coolDownMs: number;
}

/** Where shared rate-limit counters live in Redis: every key starts with keyPrefix. */
export const DEFAULT_RATE_LIMIT_KEY_PREFIX = 'ferry-rl:';

export interface Config {
  production: boolean;
  port: number;
  host: string;
  logLevel: string;
  /** How long SIGTERM waits for in-flight requests before the process exits with 1. */
  shutdownGraceMs: number;
  publicUrl: string;
  dataDir: string;
  /**
   * poolSize: the most PostgreSQL connections of the pool (DATABASE_POOL_SIZE); unset means
   * DEFAULT_POOL_SIZE in database.ts. directUrl (DATABASE_DIRECT_URL): where migrations and LISTEN
   * connect when `url` is a transaction-mode pooler; unset means `url`.
   */
  database:
    | { engine: 'sqlite'; file: string }
    | { engine: 'postgres'; url: string; poolSize?: number; directUrl?: string };
  /** What this instance serves (FERRY_AREAS, areas.ts); objects and health are always on. */
  areas: Areas;
  /**
   * Bearer token of the release endpoints. Undefined in development until a token is generated on
   * first start, and whenever the OTA area is off (OTA_RELEASE_TOKEN is then not read).
   */
  releaseToken: string | undefined;
  limits: {
    releaseBodyBytes: number;
    releasePerMinute: number;
    baselinePerMinute: number;
    /** Refused credentials per minute per client address before every authentication answers 429. */
    authFailuresPerMinute: number;
    /**
     * REDIS_URL: rate-limit counters shared by every instance using this Redis, under keyPrefix.
     * Undefined: counters live in memory, per instance.
     */
    /**
     * commandTimeoutMs: the most a stalled Redis may cost a request before it passes unlimited
     * (fail open); 1 s unless set (tests raise it so a loaded machine does not skip counting).
     */
    redis: { url: string; keyPrefix: string; commandTimeoutMs?: number; breaker?: RedisBreakerPolicy } | undefined;
  };
  /** Trusted proxies, request timeouts and connection limits (http-config.ts). */
  http: HttpConfig;
  /**
   * Certificate issuance: keys, user auth, vendors, limits (certificate-config.ts). Undefined when
   * the certificate area is off: its variables are then neither required nor read.
   */
  certificates: CertificateConfig | undefined;
  /** Object storage: local files or S3, asset URLs, upload limit (object-store-config.ts). */
  objects: ObjectsConfig;
  /**
   * Manifest signing and the manifest cache (updates-config.ts). Undefined when the OTA area is
   * off: its variables are then neither required nor read.
   */
  updates: UpdatesConfig | undefined;
  /** Operator single sign-on (CONSOLE_OIDC_*, console-oidc-config.ts); undefined when off or with the OTA area off. */
  consoleOidc?: ConsoleOidcConfig;
  /** Where /metrics is served: off, the main port behind METRICS_TOKEN, or METRICS_PORT (metrics-config.ts). */
  metrics: MetricsConfig;
}

/** Empty strings count as unset: CI systems often export VAR= for "not configured". */
const withoutEmpty = (env: Env): Env => Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));

export interface LoadConfigOptions {
  /** The vendors certificates are issued through (vendors/vendor-registry.ts); default: the built-in ones. */
  vendors?: VendorRegistry;
}

export function loadConfig(rawEnv: Env = process.env, options: LoadConfigOptions = {}): Config {
  const setEnv = withoutEmpty(rawEnv);
  const areas = parseAreas(setEnv.FERRY_AREAS);
  // An area that is off has its variables left unread, so they can neither be required nor fail.
  const parsed = EnvSchema.safeParse(areas.ota ? setEnv : { ...setEnv, OTA_RELEASE_TOKEN: undefined });
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const variable = String(first?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid ${variable}: ${first?.message ?? 'invalid value'}`);
  }
  const env = parsed.data;
  const production = env.NODE_ENV === 'production';
  if (production && areas.ota && !env.OTA_RELEASE_TOKEN) {
    throw new ConfigError(
      'OTA_RELEASE_TOKEN is required when NODE_ENV=production (the bearer token of the release endpoints)',
    );
  }
  const port = env.PORT ?? 3000;
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    production,
    port,
    host: env.HOST ?? '127.0.0.1',
    logLevel: env.LOG_LEVEL ?? 'info',
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS ?? 10_000,
    publicUrl,
    dataDir,
    areas,
    database: env.DATABASE_URL
      ? {
          engine: 'postgres',
          url: env.DATABASE_URL,
          ...(env.DATABASE_POOL_SIZE ? { poolSize: env.DATABASE_POOL_SIZE } : {}),
          ...(env.DATABASE_DIRECT_URL ? { directUrl: env.DATABASE_DIRECT_URL } : {}),
        }
      : { engine: 'sqlite', file: path.join(dataDir, 'ferry.sqlite') },
    releaseToken: env.OTA_RELEASE_TOKEN,
    limits: {
      releaseBodyBytes: env.RELEASE_BODY_LIMIT_BYTES ?? 1024 * 1024,
      releasePerMinute: env.RELEASE_RATE_LIMIT_PER_MINUTE ?? 120,
      baselinePerMinute: env.BASELINE_RATE_LIMIT_PER_MINUTE ?? 300,
      authFailuresPerMinute: env.AUTH_FAILURE_LIMIT_PER_MINUTE ?? 10,
      redis: env.REDIS_URL ? { url: env.REDIS_URL, keyPrefix: DEFAULT_RATE_LIMIT_KEY_PREFIX } : undefined,
    },
    http: loadHttpConfig(setEnv),
    certificates: areas.certificates ? loadCertificateConfig(setEnv, production, options.vendors) : undefined,
    objects: loadObjectsConfig(setEnv, { production, dataDir }),
    updates: areas.ota ? loadUpdatesConfig(setEnv, production) : undefined,
    metrics: loadMetricsConfig(setEnv, port),
    consoleOidc: areas.ota ? loadConsoleOidcConfig(setEnv) : undefined,
  };
}
