import { z } from 'zod';
import { ConfigError, type Env } from './env.js';

/** A PEM given inline or as a file path; `variable` is what error messages name. */
export interface PemSource {
  variable: string;
  inline?: string;
  path?: string;
}

export interface SigningConfig {
  key: PemSource;
  certificate: PemSource;
  keyId: string;
}

export interface UpdatesConfig {
  /** Undefined only outside production; development defaults generate a key into DATA_DIR/dev. */
  signing: SigningConfig | undefined;
  /** OTA_SIGNING_KEY_ID, kept apart so development defaults can reuse it. */
  keyId: string;
  /** How long a cached "newest release of a track" is trusted without a notification. */
  manifestCacheTtlSeconds: number;
  /**
   * How long past its TTL a cached track is still served while reloading it fails (stale-if-error,
   * MANIFEST_STALE_IF_ERROR_SECONDS; 0 turns it off). See ota/manifest/cache-freshness.ts.
   */
  manifestStaleIfErrorSeconds: number;
  /**
   * What the manifest cache may hold, in MiB by its own estimate of each track's entry
   * (MANIFEST_CACHE_MAX_MB; ota/manifest/manifest-cache.ts, entryBytes). docs/configuration.md
   * gives the tracks that fit per manifest size.
   */
  manifestCacheMaxMb: number;
  /** Asset garbage collection never deletes an object younger than this (ASSET_GC_GRACE_SECONDS). */
  assetGcGraceSeconds: number;
  /**
   * Manifest requests an instance sends itself at start-up, over the tracks it loaded, before it
   * listens (MANIFEST_WARM_UP_REQUESTS; 0 turns it off). See ota/manifest/manifest-warm-up.ts.
   */
  manifestWarmUpRequests: number;
  /** Bundle patches (ota/patches): from how many earlier releases, and embedded bundles, of a track (PATCH_BASES; 0 turns patches off). */
  patchBases: number;
  /** A patch is offered only up to this fraction of the brotli full bundle (PATCH_MAX_RATIO). */
  patchMaxRatio: number;
  /**
   * The key-encryption key that seals the signing keys of apps other than the default one
   * (APP_KEYS_SECRET or APP_KEYS_SECRET_PATH; apps/app-key-vault.ts). Undefined: such apps can be
   * neither created nor served (outside production a development secret is made in DATA_DIR/dev).
   */
  appKeysSecret: SecretSource | undefined;
  /**
   * The key-encryption key being retired while APP_KEYS_SECRET is rotated (APP_KEYS_PREVIOUS_SECRET
   * or APP_KEYS_PREVIOUS_SECRET_PATH): keys sealed under it still open until `ferry-server apps
   * reseal` seals them with the current one (docs/apps.md, "Rotating APP_KEYS_SECRET").
   */
  appKeysPreviousSecret: SecretSource | undefined;
}

/** A secret given inline or as a file, with the variable that gave it (for messages). */
export interface SecretSource {
  variable: string;
  inline?: string;
  path?: string;
}

/** Enough for V8 to optimise the manifest path, and two passes over the 1,000 tracks a large fleet loads. */
export const MANIFEST_WARM_UP_DEFAULT = 2_000;

const UpdatesEnv = z.object({
  OTA_SIGNING_KEY: z.string().min(1).optional(),
  OTA_SIGNING_KEY_PATH: z.string().min(1).optional(),
  OTA_SIGNING_CERT: z.string().min(1).optional(),
  OTA_SIGNING_CERT_PATH: z.string().min(1).optional(),
  OTA_SIGNING_KEY_ID: z
    .string()
    .regex(/^[A-Za-z0-9._:@+-]{1,64}$/, 'OTA_SIGNING_KEY_ID must be 1–64 characters of A-Z a-z 0-9 . _ : @ + -')
    .optional(),
  MANIFEST_CACHE_TTL_SECONDS: z
    .string()
    .regex(/^\d+$/, 'MANIFEST_CACHE_TTL_SECONDS must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 86_400, 'MANIFEST_CACHE_TTL_SECONDS must be between 1 and 86400')
    .optional(),
  MANIFEST_STALE_IF_ERROR_SECONDS: z
    .string()
    .regex(/^\d+$/, 'MANIFEST_STALE_IF_ERROR_SECONDS must be a whole number')
    .transform(Number)
    .refine((n) => n <= 7 * 86_400, 'MANIFEST_STALE_IF_ERROR_SECONDS must be at most 604800 (7 days)')
    .optional(),
  MANIFEST_CACHE_MAX_MB: z
    .string()
    .regex(/^\d+$/, 'MANIFEST_CACHE_MAX_MB must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 65_536, 'MANIFEST_CACHE_MAX_MB must be between 1 and 65536')
    .optional(),
  ASSET_GC_GRACE_SECONDS: z
    .string()
    .regex(/^\d+$/, 'ASSET_GC_GRACE_SECONDS must be a whole number')
    .transform(Number)
    .refine((n) => n <= 30 * 86_400, 'ASSET_GC_GRACE_SECONDS must be at most 2592000 (30 days)')
    .optional(),
  MANIFEST_WARM_UP_REQUESTS: z
    .string()
    .regex(/^\d+$/, 'MANIFEST_WARM_UP_REQUESTS must be a whole number')
    .transform(Number)
    .refine((n) => n <= 100_000, 'MANIFEST_WARM_UP_REQUESTS must be at most 100000')
    .optional(),
  PATCH_BASES: z
    .string()
    .regex(/^\d+$/, 'PATCH_BASES must be a whole number')
    .transform(Number)
    .refine((n) => n <= 20, 'PATCH_BASES must be at most 20')
    .optional(),
  APP_KEYS_SECRET: z.string().min(1).optional(),
  APP_KEYS_SECRET_PATH: z.string().min(1).optional(),
  APP_KEYS_PREVIOUS_SECRET: z.string().min(1).optional(),
  APP_KEYS_PREVIOUS_SECRET_PATH: z.string().min(1).optional(),
  PATCH_MAX_RATIO: z
    .string()
    .regex(/^(0(\.\d+)?|1(\.0+)?)$/, 'PATCH_MAX_RATIO must be a number from 0 to 1, such as 0.5')
    .transform(Number)
    .refine((n) => n > 0, 'PATCH_MAX_RATIO must be more than 0')
    .optional(),
});

/** A value given inline (VARIABLE) or as a file (VARIABLE_PATH), never both. */
function sourceOf(
  env: z.infer<typeof UpdatesEnv>,
  variable: 'OTA_SIGNING_KEY' | 'OTA_SIGNING_CERT' | 'APP_KEYS_SECRET' | 'APP_KEYS_PREVIOUS_SECRET',
): SecretSource | undefined {
  const pathVariable = `${variable}_PATH` as const;
  const inline = env[variable];
  const file = env[pathVariable];
  if (inline && file) throw new ConfigError(`Set either ${variable} or ${pathVariable}, not both`);
  if (inline) return { variable, inline };
  if (file) return { variable: pathVariable, path: file };
  return undefined;
}

/** A PEM's source; one given inline on one line (an .env file) writes its line breaks as \n. */
function pemSource(env: z.infer<typeof UpdatesEnv>, variable: 'OTA_SIGNING_KEY' | 'OTA_SIGNING_CERT') {
  const source = sourceOf(env, variable);
  return source?.inline === undefined ? source : { ...source, inline: source.inline.replaceAll('\\n', '\n') };
}

function appKeysSecretsOf(env: z.infer<typeof UpdatesEnv>) {
  const appKeysSecret = sourceOf(env, 'APP_KEYS_SECRET');
  const appKeysPreviousSecret = sourceOf(env, 'APP_KEYS_PREVIOUS_SECRET');
  if (appKeysPreviousSecret && !appKeysSecret)
    throw new ConfigError('APP_KEYS_PREVIOUS_SECRET is the secret being retired: set APP_KEYS_SECRET too');
  return { appKeysSecret, appKeysPreviousSecret };
}

/** Code signing of manifests and the manifest cache. Files are read and checked at start-up (signing/). */
export function loadUpdatesConfig(rawEnv: Env, production: boolean): UpdatesConfig {
  const parsed = UpdatesEnv.safeParse(rawEnv);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ConfigError(`Invalid ${String(first?.path[0] ?? 'environment')}: ${first?.message ?? 'invalid value'}`);
  }
  const env = parsed.data;
  const key = pemSource(env, 'OTA_SIGNING_KEY');
  const certificate = pemSource(env, 'OTA_SIGNING_CERT');
  const keyId = env.OTA_SIGNING_KEY_ID ?? 'main';
  if (production && !key) {
    throw new ConfigError(
      'OTA_SIGNING_KEY_PATH or OTA_SIGNING_KEY is required when NODE_ENV=production (the RSA key that signs manifests)',
    );
  }
  if (production && !certificate) {
    throw new ConfigError(
      'OTA_SIGNING_CERT_PATH or OTA_SIGNING_CERT is required when NODE_ENV=production (the code-signing certificate embedded in the app)',
    );
  }
  if (Boolean(key) !== Boolean(certificate)) {
    throw new ConfigError(
      key
        ? 'OTA_SIGNING_CERT_PATH or OTA_SIGNING_CERT must be set together with the signing key'
        : 'OTA_SIGNING_KEY_PATH or OTA_SIGNING_KEY must be set together with the signing certificate',
    );
  }
  return {
    signing: key && certificate ? { key, certificate, keyId } : undefined,
    keyId,
    manifestCacheTtlSeconds: env.MANIFEST_CACHE_TTL_SECONDS ?? 60,
    manifestStaleIfErrorSeconds: env.MANIFEST_STALE_IF_ERROR_SECONDS ?? 3_600,
    manifestCacheMaxMb: env.MANIFEST_CACHE_MAX_MB ?? 64,
    assetGcGraceSeconds: env.ASSET_GC_GRACE_SECONDS ?? 86_400,
    manifestWarmUpRequests: env.MANIFEST_WARM_UP_REQUESTS ?? MANIFEST_WARM_UP_DEFAULT,
    patchBases: env.PATCH_BASES ?? 3,
    patchMaxRatio: env.PATCH_MAX_RATIO ?? 0.5,
    ...appKeysSecretsOf(env),
  };
}
