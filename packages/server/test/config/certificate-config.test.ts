import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { CERTIFICATE_VENDORS } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import {
  type CertificateConfig,
  type ConfiguredVendor,
  loadCertificateConfig,
} from '../../src/config/certificate-config.js';
import { ConfigError } from '../../src/config/config.js';
import { vendorAccountsEnv, vendorAccountUrl } from '../support/vendor-accounts.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
const PRODUCTION: Record<string, string> = {
  CERT_AES_KEY: randomBytes(32).toString('base64'),
  AUTH_JWT_SECRET: 'a-production-secret-that-is-long-enough',
  ...(await vendorAccountsEnv()),
};

const vendorsOf = (config: CertificateConfig): Partial<Record<string, ConfiguredVendor>> =>
  Object.fromEntries(config.vendors.map((vendor) => [vendor.definition.id, vendor]));

const without = (name: string) => {
  const env: Record<string, string> = { ...PRODUCTION };
  delete env[name];
  return env;
};

describe('certificate configuration', () => {
  it('production with everything set: accounts, no simulators', () => {
    const config = loadCertificateConfig(PRODUCTION, true);
    expect(config.aesKey).toHaveLength(32);
    expect(vendorsOf(config).VENDOR_A).toMatchObject({
      connection: { mode: 'account', account: { baseUrl: vendorAccountUrl('VENDOR_A') } },
      authTtlSeconds: 300,
      disabledProviders: [],
    });
    expect(vendorsOf(config).VENDOR_B).toMatchObject({
      connection: { mode: 'account', account: { tokenUrl: `${vendorAccountUrl('VENDOR_B')}/oauth/token` } },
      authTtlSeconds: 270,
    });
    expect(config).toMatchObject({
      vendorTimeoutMs: 30_000,
      duplicateWaitMs: 30_000,
      ratePerMinute: 10,
      bodyLimitBytes: 16 * 1024,
      urlTtlSeconds: 600,
      retentionDays: 7,
      auth: { certifiedClaim: 'certified' },
      operatorToken: undefined,
    });
  });

  it('development with nothing set: simulators, keys filled in later', () => {
    const config = loadCertificateConfig({}, false);
    expect(config.vendors.map((vendor) => vendor.definition.id)).toEqual(CERTIFICATE_VENDORS);
    for (const vendor of config.vendors) expect(vendor.connection).toEqual({ mode: 'simulator' });
    expect(config.aesKey).toBeUndefined();
    expect(config.simulatorApprovalDelayMs).toBe(3000);
  });

  // Start-up stops naming the variable: [case, env, production, variable in the message].
  it.each([
    ['production without CERT_AES_KEY', without('CERT_AES_KEY'), true, /CERT_AES_KEY is required/],
    [
      'an AES key of 31 bytes',
      { ...PRODUCTION, CERT_AES_KEY: randomBytes(31).toString('base64') },
      true,
      /CERT_AES_KEY/,
    ],
    [
      'an AES key of 33 bytes',
      { ...PRODUCTION, CERT_AES_KEY: randomBytes(33).toString('base64') },
      false,
      /CERT_AES_KEY/,
    ],
    ['an AES key that is not Base64', { ...PRODUCTION, CERT_AES_KEY: '!'.repeat(44) }, false, /CERT_AES_KEY/],
    ['production without user auth', without('AUTH_JWT_SECRET'), true, /AUTH_JWT_SECRET or AUTH_JWKS_URL/],
    ['a short JWT secret', { ...PRODUCTION, AUTH_JWT_SECRET: 'short' }, false, /AUTH_JWT_SECRET/],
    ['both JWT secret and JWKS', { ...PRODUCTION, AUTH_JWKS_URL: 'https://id.example/jwks' }, false, /AUTH_JWKS_URL/],
    [
      'production without VENDOR_A',
      (() => {
        const env = { ...PRODUCTION } as Record<string, string>;
        for (const k of Object.keys(env)) if (k.startsWith('VENDOR_A_')) delete env[k];
        return env;
      })(),
      true,
      /VENDOR_A_URL is required/,
    ],
    ['a VENDOR_A account without its key', without('VENDOR_A_EKEY'), false, /VENDOR_A_EKEY is required/],
    ['a VENDOR_A key of the wrong size', { ...PRODUCTION, VENDOR_A_EKEY: 'short' }, false, /VENDOR_A_EKEY/],
    [
      'a VENDOR_B account without its secret',
      without('VENDOR_B_CLIENT_SECRET'),
      false,
      /VENDOR_B_CLIENT_SECRET is required/,
    ],
    [
      'a VENDOR_B key that is not RSA',
      { ...PRODUCTION, VENDOR_B_PUBLIC_KEY: 'bm90IGEga2V5' },
      false,
      /VENDOR_B_PUBLIC_KEY/,
    ],
    [
      'an unknown disabled provider',
      { ...PRODUCTION, VENDOR_B_DISABLED_PROVIDERS: 'provider_a,payco' },
      false,
      /VENDOR_B_DISABLED_PROVIDERS/,
    ],
    ['a malformed vendor timeout', { ...PRODUCTION, VENDOR_TIMEOUT_MS: '30s' }, false, /VENDOR_TIMEOUT_MS/],
    ['a malformed approval delay', { VENDOR_SIM_APPROVAL_DELAY_MS: 'soon' }, false, /VENDOR_SIM_APPROVAL_DELAY_MS/],
    ['a zero rate limit', { ...PRODUCTION, CERT_RATE_LIMIT_PER_MINUTE: '0' }, false, /CERT_RATE_LIMIT_PER_MINUTE/],
  ])('%s stops start-up', (_name, env, production, message) => {
    expect(() => loadCertificateConfig(env, production)).toThrow(ConfigError);
    expect(() => loadCertificateConfig(env, production)).toThrow(message);
  });

  it('reads the optional settings', () => {
    const config = loadCertificateConfig(
      {
        ...PRODUCTION,
        VENDOR_B_PUBLIC_KEY: rsa.export({ format: 'pem', type: 'spki' }).toString(),
        VENDOR_B_DISABLED_PROVIDERS: 'provider_d, provider_e',
        VENDOR_A_AUTH_TTL_SECONDS: '120',
        VENDOR_SIM_APPROVAL_DELAY_MS: 'never',
        VENDOR_TIMEOUT_MS: '1500',
        CERT_URL_TTL_SECONDS: '120',
        CERT_RETENTION_DAYS: '30',
        AUTH_CERTIFIED_CLAIM: 'https://example.com/certified',
        OPERATOR_TOKEN: 'operator-token-0123456789',
      },
      false,
    );
    expect(vendorsOf(config).VENDOR_A?.disabledProviders).toEqual([]);
    expect(vendorsOf(config).VENDOR_B?.disabledProviders).toEqual(['provider_d', 'provider_e']);
    expect(vendorsOf(config).VENDOR_A?.authTtlSeconds).toBe(120);
    expect(vendorsOf(config).VENDOR_B?.authTtlSeconds).toBe(270);
    expect(config).toMatchObject({
      simulatorApprovalDelayMs: 'never',
      vendorTimeoutMs: 1500,
      // Unset: a duplicate waits as long as the call it waits for may take.
      duplicateWaitMs: 1500,
      urlTtlSeconds: 120,
      retentionDays: 30,
      auth: { certifiedClaim: 'https://example.com/certified' },
      operatorToken: 'operator-token-0123456789',
    });
    expect(loadCertificateConfig({ ...PRODUCTION, CERT_DUPLICATE_WAIT_MS: '400' }, true).duplicateWaitMs).toBe(400);
    expect(() => loadCertificateConfig({ ...PRODUCTION, CERT_DUPLICATE_WAIT_MS: 'soon' }, true)).toThrow(
      /CERT_DUPLICATE_WAIT_MS/,
    );
  });
});
