import { describe, expect, it } from 'vitest';
import { ConfigError, type Env } from './config.js';
import { loadObjectsConfig } from './object-store-config.js';
import { loadUpdatesConfig } from './updates-config.js';

const PRODUCTION = {
  OTA_SIGNING_KEY_PATH: '/keys/private-key.pem',
  OTA_SIGNING_CERT_PATH: '/keys/certificate.pem',
  OBJECT_URL_SIGNING_SECRET: 's'.repeat(40),
};

const loadBoth = (env: Env, production: boolean, dataDir = '/data') => ({
  updates: loadUpdatesConfig(env, production),
  objects: loadObjectsConfig(env, { production, dataDir }),
});

/** The production loaders with a complete environment, so each case isolates one variable. */
const load = (env: Record<string, string | undefined>) => {
  const merged = Object.fromEntries(Object.entries({ ...PRODUCTION, ...env }).filter(([, v]) => v !== undefined));
  return loadBoth(merged, true, env.DATA_DIR ?? '/data');
};
const failure = (env: Record<string, string | undefined>): string => {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return 'no error';
};

describe('signing configuration', () => {
  it.each([
    [
      'no key in production',
      { OTA_SIGNING_KEY_PATH: undefined },
      /OTA_SIGNING_KEY_PATH or OTA_SIGNING_KEY is required/,
    ],
    [
      'no certificate in production',
      { OTA_SIGNING_CERT_PATH: undefined },
      /OTA_SIGNING_CERT_PATH or OTA_SIGNING_CERT is required/,
    ],
    ['key given twice', { OTA_SIGNING_KEY: '-----BEGIN…' }, /either OTA_SIGNING_KEY or OTA_SIGNING_KEY_PATH/],
    ['a key id with a quote', { OTA_SIGNING_KEY_ID: 'a"b' }, /OTA_SIGNING_KEY_ID/],
    ['a cache TTL of 0', { MANIFEST_CACHE_TTL_SECONDS: '0' }, /MANIFEST_CACHE_TTL_SECONDS/],
    [
      'a stale-if-error limit that is not a number',
      { MANIFEST_STALE_IF_ERROR_SECONDS: '1h' },
      /MANIFEST_STALE_IF_ERROR_SECONDS/,
    ],
    [
      'a stale-if-error limit over 7 days',
      { MANIFEST_STALE_IF_ERROR_SECONDS: '604801' },
      /MANIFEST_STALE_IF_ERROR_SECONDS/,
    ],
    ['a GC grace period that is not a number', { ASSET_GC_GRACE_SECONDS: '1d' }, /ASSET_GC_GRACE_SECONDS/],
    ['a GC grace period over 30 days', { ASSET_GC_GRACE_SECONDS: '2592001' }, /ASSET_GC_GRACE_SECONDS/],
    ['a warm-up that is not a number', { MANIFEST_WARM_UP_REQUESTS: 'lots' }, /MANIFEST_WARM_UP_REQUESTS/],
    ['a warm-up over 100,000 requests', { MANIFEST_WARM_UP_REQUESTS: '100001' }, /MANIFEST_WARM_UP_REQUESTS/],
    ['a cache of 0 MiB', { MANIFEST_CACHE_MAX_MB: '0' }, /MANIFEST_CACHE_MAX_MB/],
    ['patches from more than 20 bases', { PATCH_BASES: '21' }, /PATCH_BASES/],
    ['a patch ratio above 1', { PATCH_MAX_RATIO: '1.5' }, /PATCH_MAX_RATIO/],
    ['a patch ratio of 0', { PATCH_MAX_RATIO: '0' }, /PATCH_MAX_RATIO/],
    ['a patch ratio in percent', { PATCH_MAX_RATIO: '50%' }, /PATCH_MAX_RATIO/],
    ['a cache size that is not a number', { MANIFEST_CACHE_MAX_MB: '64M' }, /MANIFEST_CACHE_MAX_MB/],
    [
      'an app keys secret given twice',
      { APP_KEYS_SECRET: 'a', APP_KEYS_SECRET_PATH: '/s' },
      /either APP_KEYS_SECRET or APP_KEYS_SECRET_PATH/,
    ],
    [
      'a previous app keys secret given twice',
      { APP_KEYS_SECRET: 'a', APP_KEYS_PREVIOUS_SECRET: 'b', APP_KEYS_PREVIOUS_SECRET_PATH: '/s' },
      /either APP_KEYS_PREVIOUS_SECRET or APP_KEYS_PREVIOUS_SECRET_PATH/,
    ],
    [
      'a previous app keys secret without a current one',
      { APP_KEYS_PREVIOUS_SECRET: 'b' },
      /APP_KEYS_PREVIOUS_SECRET is the secret being retired: set APP_KEYS_SECRET too/,
    ],
  ])('%s stops start-up naming the variable', (_name, env, message) => {
    expect(failure(env)).toMatch(message);
  });

  it('a key without a certificate is refused in development too', () => {
    expect(() => loadBoth({ OTA_SIGNING_KEY_PATH: '/k.pem' }, false)).toThrow(
      /OTA_SIGNING_CERT_PATH or OTA_SIGNING_CERT must be set together/,
    );
  });

  it('reads sources, key id and TTL', () => {
    const config = load({ OTA_SIGNING_KEY_ID: 'prod-2026', MANIFEST_CACHE_TTL_SECONDS: '30' });
    expect(config.updates).toEqual({
      signing: {
        key: { variable: 'OTA_SIGNING_KEY_PATH', path: '/keys/private-key.pem' },
        certificate: { variable: 'OTA_SIGNING_CERT_PATH', path: '/keys/certificate.pem' },
        keyId: 'prod-2026',
      },
      keyId: 'prod-2026',
      manifestCacheTtlSeconds: 30,
      manifestStaleIfErrorSeconds: 3_600,
      manifestCacheMaxMb: 64,
      assetGcGraceSeconds: 86_400,
      manifestWarmUpRequests: 2_000,
      patchBases: 3,
      patchMaxRatio: 0.5,
    });
  });

  it('reads the app keys secret and, while it is rotated, the previous one', () => {
    expect(load({ APP_KEYS_SECRET: 'new', APP_KEYS_PREVIOUS_SECRET_PATH: '/old.secret' }).updates).toMatchObject({
      appKeysSecret: { variable: 'APP_KEYS_SECRET', inline: 'new' },
      appKeysPreviousSecret: { variable: 'APP_KEYS_PREVIOUS_SECRET_PATH', path: '/old.secret' },
    });
  });

  it('reads the bundle patch settings (PATCH_BASES 0 turns patches off)', () => {
    expect(load({ PATCH_BASES: '0', PATCH_MAX_RATIO: '0.25' }).updates).toMatchObject({
      patchBases: 0,
      patchMaxRatio: 0.25,
    });
  });

  it('reads the stale-if-error limit (0 turns it off)', () => {
    expect(load({ MANIFEST_STALE_IF_ERROR_SECONDS: '600' }).updates.manifestStaleIfErrorSeconds).toBe(600);
    expect(load({ MANIFEST_STALE_IF_ERROR_SECONDS: '0' }).updates.manifestStaleIfErrorSeconds).toBe(0);
  });

  it('reads the manifest cache size in MiB', () => {
    expect(load({ MANIFEST_CACHE_MAX_MB: '256' }).updates.manifestCacheMaxMb).toBe(256);
  });

  it('reads the start-up warm-up (0 turns it off)', () => {
    expect(load({ MANIFEST_WARM_UP_REQUESTS: '500' }).updates.manifestWarmUpRequests).toBe(500);
    expect(load({ MANIFEST_WARM_UP_REQUESTS: '0' }).updates.manifestWarmUpRequests).toBe(0);
  });

  it('reads the asset GC grace period (0 allowed: tests and deliberate runs)', () => {
    expect(load({ ASSET_GC_GRACE_SECONDS: '3600' }).updates.assetGcGraceSeconds).toBe(3600);
    expect(load({ ASSET_GC_GRACE_SECONDS: '0' }).updates.assetGcGraceSeconds).toBe(0);
  });

  it('inline PEMs may carry \\n escapes (one-line secrets)', () => {
    const config = load({ OTA_SIGNING_KEY_PATH: undefined, OTA_SIGNING_KEY: 'line1\\nline2' });
    expect(config.updates.signing?.key).toEqual({ variable: 'OTA_SIGNING_KEY', inline: 'line1\nline2' });
  });

  it('development needs no signing configuration (a key is generated)', () => {
    expect(loadBoth({}, false).updates).toMatchObject({
      signing: undefined,
      keyId: 'main',
      manifestCacheTtlSeconds: 60,
    });
  });
});

describe('object store configuration', () => {
  it.each([
    [
      'no URL secret with the local store',
      { OBJECT_URL_SIGNING_SECRET: undefined },
      /OBJECT_URL_SIGNING_SECRET is required/,
    ],
    ['a short URL secret', { OBJECT_URL_SIGNING_SECRET: 'short' }, /OBJECT_URL_SIGNING_SECRET must be at least 32/],
    ['a store URL that is not s3://', { OBJECT_STORE_URL: 'gs://bucket' }, /OBJECT_STORE_URL must look like s3:/],
    ['a bucket prefix with ..', { OBJECT_STORE_URL: 's3://bucket/a/../b' }, /OBJECT_STORE_URL: the prefix/],
    [
      'a malformed path-style flag',
      { OBJECT_STORE_URL: 's3://bucket', S3_FORCE_PATH_STYLE: 'yes' },
      /S3_FORCE_PATH_STYLE/,
    ],
    [
      'an access key without its secret',
      { OBJECT_STORE_URL: 's3://bucket', AWS_ACCESS_KEY_ID: 'AKID' },
      /AWS_SECRET_ACCESS_KEY must be set together/,
    ],
    ['a CDN base that is not http', { ASSET_PUBLIC_BASE_URL: 'ftp://cdn' }, /ASSET_PUBLIC_BASE_URL/],
  ])('%s stops start-up naming the variable', (_name, env, message) => {
    expect(failure(env)).toMatch(message);
  });

  it('S3 needs no URL secret; path style follows a custom endpoint', () => {
    const config = load({
      OBJECT_URL_SIGNING_SECRET: undefined,
      OBJECT_STORE_URL: 's3://ferry-assets/prod/ota/',
      S3_ENDPOINT: 'http://minio:9000',
      AWS_REGION: 'eu-central-1',
    });
    expect(config.objects.store).toEqual({
      kind: 's3',
      s3: {
        bucket: 'ferry-assets',
        prefix: 'prod/ota',
        endpoint: 'http://minio:9000',
        forcePathStyle: true,
        region: 'eu-central-1',
        credentials: undefined,
      },
    });
    expect(load({ OBJECT_STORE_URL: 's3://ferry-assets' }).objects.store).toMatchObject({
      s3: { prefix: '', forcePathStyle: false, region: 'us-east-1' },
    });
  });

  it('local by default, under DATA_DIR/objects, assets under PUBLIC_URL/objects unless a CDN is set', () => {
    const config = load({ DATA_DIR: '/srv/ferry' });
    expect(config.objects.store).toMatchObject({ kind: 'local', directory: '/srv/ferry/objects' });
    expect(config.objects.assetPublicBaseUrl).toBeUndefined();
    expect(config.objects.uploadLimitBytes).toBe(100 * 1024 * 1024);
    expect(load({ ASSET_PUBLIC_BASE_URL: 'https://cdn.example.com/ota/' }).objects.assetPublicBaseUrl).toBe(
      'https://cdn.example.com/ota',
    );
  });
});
