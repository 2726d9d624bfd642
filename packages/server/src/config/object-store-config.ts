import path from 'node:path';
import { z } from 'zod';
import { ConfigError, type Env } from './env.js';

export interface S3Location {
  bucket: string;
  /** Key prefix inside the bucket, without leading or trailing slash; '' for the bucket root. */
  prefix: string;
  endpoint: string | undefined;
  forcePathStyle: boolean;
  region: string;
  /** Explicit credentials; undefined lets the AWS SDK's default chain find them (roles, profiles…). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
}

export type ObjectStoreConfig =
  | {
      kind: 'local';
      directory: string;
      /** HMAC secret of signed object URLs. Undefined only outside production (an ephemeral one is used). */
      urlSecret: Buffer | undefined;
    }
  | { kind: 's3'; s3: S3Location };

export interface ObjectsConfig {
  store: ObjectStoreConfig;
  /** ASSET_PUBLIC_BASE_URL without trailing slash; undefined means PUBLIC_URL/objects. */
  assetPublicBaseUrl: string | undefined;
  uploadLimitBytes: number;
}

const intFrom = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

const bool = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { message: `${name} must be true or false` })
    .transform((v) => v === 'true' || v === '1');

const ObjectsEnv = z.object({
  OBJECT_STORE_URL: z
    .string()
    .regex(
      /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[\x21-\x7e]*)?$/,
      'OBJECT_STORE_URL must look like s3://bucket/prefix (leave it unset for local files in DATA_DIR)',
    )
    .optional(),
  OBJECT_URL_SIGNING_SECRET: z
    .string()
    .min(32, 'OBJECT_URL_SIGNING_SECRET must be at least 32 characters (e.g. `openssl rand -base64 48`)')
    .optional(),
  ASSET_PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/, message: 'ASSET_PUBLIC_BASE_URL must be an http(s) URL' })
    .optional(),
  ASSET_UPLOAD_LIMIT_BYTES: intFrom('ASSET_UPLOAD_LIMIT_BYTES', 1024, 2 * 1024 * 1024 * 1024).optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, message: 'S3_ENDPOINT must be an http(s) URL' }).optional(),
  S3_FORCE_PATH_STYLE: bool('S3_FORCE_PATH_STYLE').optional(),
  AWS_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,40}$/, 'AWS_REGION must look like eu-west-1')
    .optional(),
  AWS_DEFAULT_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,40}$/, 'AWS_DEFAULT_REGION must look like eu-west-1')
    .optional(),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
});

function parseS3Url(url: string): { bucket: string; prefix: string } {
  const rest = url.slice('s3://'.length);
  const slash = rest.indexOf('/');
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  const prefix = slash === -1 ? '' : rest.slice(slash + 1).replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((segment) => segment === '.' || segment === '..' || (prefix !== '' && segment === ''))) {
    throw new ConfigError('Invalid OBJECT_STORE_URL: the prefix must not contain empty, "." or ".." segments');
  }
  return { bucket, prefix };
}

/** Object storage: local files under DATA_DIR/objects (default) or S3 (OBJECT_STORE_URL). */
export function loadObjectsConfig(rawEnv: Env, context: { production: boolean; dataDir: string }): ObjectsConfig {
  const parsed = ObjectsEnv.safeParse(rawEnv);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ConfigError(`Invalid ${String(first?.path[0] ?? 'environment')}: ${first?.message ?? 'invalid value'}`);
  }
  const env = parsed.data;
  const assetPublicBaseUrl = env.ASSET_PUBLIC_BASE_URL?.replace(/\/+$/, '');
  const uploadLimitBytes = env.ASSET_UPLOAD_LIMIT_BYTES ?? 100 * 1024 * 1024;

  if (env.OBJECT_STORE_URL) {
    if (Boolean(env.AWS_ACCESS_KEY_ID) !== Boolean(env.AWS_SECRET_ACCESS_KEY)) {
      throw new ConfigError('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together (or both left unset)');
    }
    const { bucket, prefix } = parseS3Url(env.OBJECT_STORE_URL);
    return {
      store: {
        kind: 's3',
        s3: {
          bucket,
          prefix,
          endpoint: env.S3_ENDPOINT,
          // S3-compatible servers behind a custom endpoint (MinIO, Ceph…) nearly always want path style.
          forcePathStyle: env.S3_FORCE_PATH_STYLE ?? env.S3_ENDPOINT !== undefined,
          region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
          credentials:
            env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
              ? {
                  accessKeyId: env.AWS_ACCESS_KEY_ID,
                  secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
                  ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
                }
              : undefined,
        },
      },
      assetPublicBaseUrl,
      uploadLimitBytes,
    };
  }

  if (context.production && !env.OBJECT_URL_SIGNING_SECRET) {
    throw new ConfigError(
      'OBJECT_URL_SIGNING_SECRET is required when NODE_ENV=production and objects are stored locally ' +
        '(it signs the expiring URLs of private objects; or set OBJECT_STORE_URL to use S3)',
    );
  }
  return {
    store: {
      kind: 'local',
      directory: path.join(context.dataDir, 'objects'),
      urlSecret: env.OBJECT_URL_SIGNING_SECRET ? Buffer.from(env.OBJECT_URL_SIGNING_SECRET, 'utf8') : undefined,
    },
    assetPublicBaseUrl,
    uploadLimitBytes,
  };
}
