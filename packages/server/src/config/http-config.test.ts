import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { ConfigError } from './env.js';
import { HTTP_DEFAULTS, loadHttpConfig, serverTimeoutOptions } from './http-config.js';
import { fastifyTrustProxy, parseTrustProxy } from './trust-proxy.js';

describe('parseTrustProxy', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['FALSE', false],
    ['true', true],
    [' True ', true],
    ['0', 0],
    ['1', 1],
    ['32', 32],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, 192.168.1.1/24', ['10.0.0.0/8', '192.168.1.1/24']],
    ['::1,fd00::/8', ['::1', 'fd00::/8']],
    ['loopback,uniquelocal,linklocal', ['loopback', 'uniquelocal', 'linklocal']],
    ['10.0.0.0/0', ['10.0.0.0/0']],
    ['::/128', ['::/128']],
  ])('%j → %j', (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected);
  });

  it.each([
    ['33', /hop count must be between 0 and 32/],
    ['yes', /"yes" is not an IP address/],
    ['10.0.0.0/33', /"10.0.0.0\/33" is not/],
    ['fd00::/129', /"fd00::\/129" is not/],
    ['10.0.0.1/8/2', /"10.0.0.1\/8\/2" is not/],
    ['10.0.0.1/x', /is not/],
    ['10.0.0.1,', /"" is not/],
    ['proxy.internal', /"proxy.internal" is not/],
    ['1.2.3.4:80', /"1.2.3.4:80" is not/],
  ])('refuses %j', (value, message) => {
    const parsed = parseTrustProxy(value);
    expect(parsed).toEqual({ error: expect.stringMatching(message) });
  });
});

describe('fastifyTrustProxy', () => {
  it('passes booleans and lists through, and turns a hop count into a trust function on the hop index', () => {
    expect(fastifyTrustProxy(false)).toBe(false);
    expect(fastifyTrustProxy(true)).toBe(true);
    expect(fastifyTrustProxy(['10.0.0.0/8'])).toEqual(['10.0.0.0/8']);
    expect(fastifyTrustProxy(0)).toBe(false);
    const twoHops = fastifyTrustProxy(2) as (address: string, index: number) => boolean;
    expect([0, 1, 2, 3].map((index) => twoHops('203.0.113.9', index))).toEqual([true, true, false, false]);
  });
});

describe('loadHttpConfig', () => {
  it('defaults to trusting no proxy, with bounded timeouts and no per-address connection limit', () => {
    expect(loadHttpConfig({})).toEqual({ trustProxy: false, ...HTTP_DEFAULTS, maxConnectionsPerAddress: 0 });
    // Production trusts nothing either unless told.
    const production = loadConfig({
      NODE_ENV: 'production',
      FERRY_AREAS: 'ota',
      OTA_RELEASE_TOKEN: 'a-production-release-token',
      OTA_SIGNING_KEY_PATH: '/keys/private-key.pem',
      OTA_SIGNING_CERT_PATH: '/keys/certificate.pem',
      OBJECT_URL_SIGNING_SECRET: 's'.repeat(40),
    });
    expect(production.http.trustProxy).toBe(false);
  });

  it('reads every setting', () => {
    expect(
      loadHttpConfig({
        TRUST_PROXY: '1',
        HEADERS_TIMEOUT_MS: '5000',
        BODY_TIMEOUT_MS: '7000',
        UPLOAD_TIMEOUT_MS: '600000',
        IDLE_TIMEOUT_MS: '90000',
        KEEP_ALIVE_TIMEOUT_MS: '65000',
        MAX_CONNECTIONS_PER_ADDRESS: '50',
      }),
    ).toEqual({
      trustProxy: 1,
      headersTimeoutMs: 5000,
      bodyTimeoutMs: 7000,
      uploadTimeoutMs: 600000,
      idleTimeoutMs: 90000,
      keepAliveTimeoutMs: 65000,
      maxConnectionsPerAddress: 50,
    });
  });

  it.each([
    [{ TRUST_PROXY: 'everyone' }, /^Invalid TRUST_PROXY: "everyone" is not an IP address/],
    [{ BODY_TIMEOUT_MS: '30s' }, /^Invalid BODY_TIMEOUT_MS: BODY_TIMEOUT_MS must be a whole number of milliseconds/],
    [{ HEADERS_TIMEOUT_MS: '0' }, /^Invalid HEADERS_TIMEOUT_MS: HEADERS_TIMEOUT_MS must be between 1 and/],
    [{ UPLOAD_TIMEOUT_MS: '86400001' }, /^Invalid UPLOAD_TIMEOUT_MS/],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '-1' }, /^Invalid MAX_CONNECTIONS_PER_ADDRESS/],
  ])('refuses %j', (env, message) => {
    expect(() => loadHttpConfig(env)).toThrow(ConfigError);
    expect(() => loadHttpConfig(env)).toThrow(message);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('gives Node a request timeout no shorter than any deadline, the backstop of the body deadlines', () => {
    const options = serverTimeoutOptions({ ...loadHttpConfig({}), headersTimeoutMs: 40_000, uploadTimeoutMs: 30_000 });
    expect(options).toEqual({
      requestTimeout: 40_000,
      connectionTimeout: HTTP_DEFAULTS.idleTimeoutMs,
      keepAliveTimeout: HTTP_DEFAULTS.keepAliveTimeoutMs,
      http: { headersTimeout: 40_000, requestTimeout: 40_000 },
    });
  });
});

describe('AUTH_FAILURE_LIMIT_PER_MINUTE', () => {
  it('defaults to 10 and refuses anything but a positive whole number', () => {
    expect(loadConfig({}).limits.authFailuresPerMinute).toBe(10);
    expect(loadConfig({ AUTH_FAILURE_LIMIT_PER_MINUTE: '3' }).limits.authFailuresPerMinute).toBe(3);
    expect(() => loadConfig({ AUTH_FAILURE_LIMIT_PER_MINUTE: '0' })).toThrow(
      /^Invalid AUTH_FAILURE_LIMIT_PER_MINUTE: AUTH_FAILURE_LIMIT_PER_MINUTE must be between 1 and 1000000/,
    );
  });
});
