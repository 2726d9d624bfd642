import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { vendorAccountsEnv } from '../../test/support/vendor-accounts.js';
import { type Areas, describeAreas, parseAreas } from './areas.js';
import { ConfigError, type Env, loadConfig } from './config.js';

describe('FERRY_AREAS', () => {
  const both: Areas = { ota: true, certificates: true };
  it.each<[string, string | undefined, Areas]>([
    ['unset', undefined, both],
    ['empty', '', both],
    ['only spaces', '   ', both],
    ['ota', 'ota', { ota: true, certificates: false }],
    ['certificates', 'certificates', { ota: false, certificates: true }],
    ['ota,certificates', 'ota,certificates', both],
    ['the other order', 'certificates,ota', both],
    ['spaces around names', ' ota , certificates ', both],
    ['a tab and a space', '\tcertificates ', { ota: false, certificates: true }],
  ])('%s → %o', (_case, value, areas) => {
    expect(parseAreas(value)).toEqual(areas);
  });

  it.each<[string, string, RegExp]>([
    ['an unknown area', 'updates', /unknown area "updates"/],
    ['a wrong case', 'OTA', /unknown area "OTA"/],
    ['a typo next to a valid name', 'ota,certificate', /unknown area "certificate"/],
    ['a trailing comma', 'ota,', /an area name is empty/],
    ['an empty item', 'ota,,certificates', /an area name is empty/],
    ['a name twice', 'ota,ota', /"ota" is named twice/],
    ['another separator', 'ota;certificates', /unknown area/],
    ['no area at all', ',', /an area name is empty/],
  ])('%s (%j) is refused, naming FERRY_AREAS and the valid values', (_case, value, reason) => {
    expect(() => parseAreas(value)).toThrow(ConfigError);
    expect(() => parseAreas(value)).toThrow(reason);
    expect(() => parseAreas(value)).toThrow(
      /^Invalid FERRY_AREAS: .*valid values are `ota`, `certificates` or `ota,certificates`/,
    );
  });

  it.each<[Areas, string]>([
    [both, 'ota on, certificates on'],
    [{ ota: true, certificates: false }, 'ota on, certificates off'],
    [{ ota: false, certificates: true }, 'ota off, certificates on'],
  ])('%o is announced as "%s"', (areas, text) => {
    expect(describeAreas(areas)).toBe(text);
  });
});

const OTA_PRODUCTION: Env = {
  NODE_ENV: 'production',
  OTA_RELEASE_TOKEN: 'a-production-release-token',
  OTA_SIGNING_KEY_PATH: '/keys/private-key.pem',
  OTA_SIGNING_CERT_PATH: '/keys/certificate.pem',
  OBJECT_URL_SIGNING_SECRET: 's'.repeat(40),
};
const CERTIFICATE_PRODUCTION: Env = {
  NODE_ENV: 'production',
  CERT_AES_KEY: randomBytes(32).toString('base64'),
  AUTH_JWT_SECRET: 'a-production-secret-that-is-long-enough',
  ...(await vendorAccountsEnv()),
  OBJECT_URL_SIGNING_SECRET: 's'.repeat(40),
};

const failure = (env: Env): string => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return 'no error';
};

describe('configuration per area', () => {
  it('a production OTA instance needs only the OTA variables; certificate ones are not read', () => {
    const config = loadConfig({ ...OTA_PRODUCTION, FERRY_AREAS: 'ota' });
    expect(config.areas).toEqual({ ota: true, certificates: false });
    expect(config.certificates).toBeUndefined();
    expect(config.updates?.signing?.key.path).toBe('/keys/private-key.pem');
    // A malformed certificate variable cannot stop an instance that does not serve certificates.
    expect(loadConfig({ ...OTA_PRODUCTION, FERRY_AREAS: 'ota', CERT_AES_KEY: 'not base64' }).certificates).toBe(
      undefined,
    );
  });

  it('a production certificate instance needs only the certificate variables; OTA ones are not read', () => {
    const config = loadConfig({ ...CERTIFICATE_PRODUCTION, FERRY_AREAS: 'certificates' });
    expect(config.areas).toEqual({ ota: false, certificates: true });
    expect(config.updates).toBeUndefined();
    expect(config.releaseToken).toBeUndefined();
    expect(config.certificates?.vendors.length).toBeGreaterThan(0);
    for (const vendor of config.certificates?.vendors ?? []) expect(vendor.connection.mode).toBe('account');
    const ignored = loadConfig({
      ...CERTIFICATE_PRODUCTION,
      FERRY_AREAS: 'certificates',
      OTA_RELEASE_TOKEN: 'short',
      OTA_SIGNING_KEY_PATH: '/keys/only-a-key.pem',
    });
    expect(ignored.releaseToken).toBeUndefined();
    expect(ignored.updates).toBeUndefined();
  });

  // [case, environment, what the message names]
  it.each<[string, Env, RegExp]>([
    ['both areas (the default) with only OTA variables', OTA_PRODUCTION, /CERT_AES_KEY is required/],
    [
      'both areas with only certificate variables',
      CERTIFICATE_PRODUCTION,
      /OTA_RELEASE_TOKEN is required when NODE_ENV=production/,
    ],
    [
      'OTA only without OTA_RELEASE_TOKEN',
      { ...OTA_PRODUCTION, FERRY_AREAS: 'ota', OTA_RELEASE_TOKEN: undefined },
      /OTA_RELEASE_TOKEN is required when NODE_ENV=production/,
    ],
    [
      'OTA only without the signing key',
      { ...OTA_PRODUCTION, FERRY_AREAS: 'ota', OTA_SIGNING_KEY_PATH: undefined },
      /OTA_SIGNING_KEY_PATH or OTA_SIGNING_KEY is required/,
    ],
    [
      'OTA only without the object URL secret',
      { ...OTA_PRODUCTION, FERRY_AREAS: 'ota', OBJECT_URL_SIGNING_SECRET: undefined },
      /OBJECT_URL_SIGNING_SECRET is required/,
    ],
    [
      'certificates only without CERT_AES_KEY',
      { ...CERTIFICATE_PRODUCTION, FERRY_AREAS: 'certificates', CERT_AES_KEY: undefined },
      /CERT_AES_KEY is required/,
    ],
    [
      'certificates only without VENDOR_B',
      { ...CERTIFICATE_PRODUCTION, FERRY_AREAS: 'certificates', VENDOR_B_URL: undefined },
      /VENDOR_B_URL is required because VENDOR_B_CLIENT_ID is set/,
    ],
    [
      'certificates only without the object URL secret',
      { ...CERTIFICATE_PRODUCTION, FERRY_AREAS: 'certificates', OBJECT_URL_SIGNING_SECRET: undefined },
      /OBJECT_URL_SIGNING_SECRET is required/,
    ],
    ['an unknown area', { ...OTA_PRODUCTION, FERRY_AREAS: 'web' }, /Invalid FERRY_AREAS/],
  ])('%s stops start-up', (_case, env, message) => {
    expect(failure(env)).toMatch(message);
  });

  it.each<[string, Env, string]>([
    ['redis://host', { REDIS_URL: 'redis://127.0.0.1:6379' }, 'redis://127.0.0.1:6379'],
    [
      'rediss:// with a password and a database',
      { REDIS_URL: 'rediss://:pw@redis.internal:6380/2' },
      'rediss://:pw@redis.internal:6380/2',
    ],
  ])('REDIS_URL %s shares rate limits', (_case, env, url) => {
    expect(loadConfig(env).limits.redis).toEqual({ url, keyPrefix: 'ferry-rl:' });
  });

  it('without REDIS_URL rate limits stay in memory', () => {
    expect(loadConfig({}).limits.redis).toBeUndefined();
    expect(loadConfig({ REDIS_URL: '' }).limits.redis).toBeUndefined();
  });

  it.each(['http://127.0.0.1:6379', '127.0.0.1:6379', 'redis://', 'redis:///0'])(
    'REDIS_URL %j stops start-up naming it',
    (url) => {
      expect(failure({ REDIS_URL: url })).toMatch(/^Invalid REDIS_URL: REDIS_URL must be/);
    },
  );
});
