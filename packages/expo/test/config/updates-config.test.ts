import { AppSlug, appOfUpdatesUrl, appManifestPath as contractManifestPath } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { appManifestPath, updatesConfig } from '../../config/index.mjs';

const urls = {
  developmentUrl: 'https://dev-api.example.com',
  productionUrl: 'https://api.example.com/',
  codeSigningCertificate: './certs/certificate.pem',
};

describe('updatesConfig (the app config `updates` block per APP_ENV)', () => {
  it.each([
    ['development', 'https://dev-api.example.com/api/updates/manifest', 'development'],
    ['qa', 'https://dev-api.example.com/api/updates/manifest', 'development'],
    ['canary', 'https://dev-api.example.com/api/updates/manifest', 'development'],
    ['production', 'https://api.example.com/api/updates/manifest', 'production'],
  ])('%s → %s on channel %s', (appEnv, url, channel) => {
    expect(updatesConfig(appEnv, urls)).toEqual({
      enabled: true,
      checkAutomatically: 'ON_LOAD',
      fallbackToCacheTimeout: 0,
      url,
      requestHeaders: { 'expo-channel-name': channel },
      codeSigningCertificate: './certs/certificate.pem',
      codeSigningMetadata: { keyid: 'main', alg: 'rsa-v1_5-sha256' },
    });
  });

  it('local has updates disabled and no manifest address', () => {
    const config = updatesConfig('local', urls);
    expect(config.enabled).toBe(false);
    expect(config).not.toHaveProperty('url');
    expect(config.requestHeaders).toEqual({ 'expo-channel-name': 'development' });
  });

  it('local needs neither addresses nor a certificate', () => {
    expect(updatesConfig('local')).toEqual({
      enabled: false,
      checkAutomatically: 'ON_LOAD',
      fallbackToCacheTimeout: 0,
      requestHeaders: { 'expo-channel-name': 'development' },
    });
  });

  it('passes a custom keyid through', () => {
    expect(updatesConfig('production', { ...urls, keyid: 'k2026' }).codeSigningMetadata).toEqual({
      keyid: 'k2026',
      alg: 'rsa-v1_5-sha256',
    });
  });

  it('keeps an address that already is the manifest URL, with a path prefix', () => {
    expect(
      updatesConfig('qa', { ...urls, developmentUrl: 'https://x.example.com/ferry/api/updates/manifest' }).url,
    ).toBe('https://x.example.com/ferry/api/updates/manifest');
    expect(updatesConfig('qa', { ...urls, developmentUrl: 'http://10.0.2.2:3000/ferry/' }).url).toBe(
      'http://10.0.2.2:3000/ferry/api/updates/manifest',
    );
  });

  it.each([
    ['production', { ...urls, productionUrl: undefined }, /productionUrl must be an absolute http\(s\) URL/],
    ['development', { ...urls, developmentUrl: 'dev-api.example.com' }, /developmentUrl/],
    ['canary', { ...urls, developmentUrl: 'ftp://dev-api.example.com' }, /developmentUrl/],
    [
      'production',
      { ...urls, codeSigningCertificate: undefined },
      /codeSigningCertificate .* required for APP_ENV=production/,
    ],
    ['qa', { ...urls, codeSigningCertificate: '' }, /codeSigningCertificate/],
    ['production', { ...urls, keyid: '' }, /keyid/],
    ['prod', urls, /APP_ENV must be one of/],
  ])('%s with %j is refused', (appEnv, options, message) => {
    expect(() => updatesConfig(appEnv, options)).toThrow(message);
  });
});

describe('updatesConfig with an app (many apps on one Ferry)', () => {
  it.each([
    ['production', 'shop', 'https://api.example.com/api/apps/shop/manifest'],
    ['development', 'shop', 'https://dev-api.example.com/api/apps/shop/manifest'],
    ['canary', 'games-2', 'https://dev-api.example.com/api/apps/games-2/manifest'],
    ['production', undefined, 'https://api.example.com/api/updates/manifest'],
  ])('%s of app %s → %s, the app the CLI reads back from it', (appEnv, app, url) => {
    const config = updatesConfig(appEnv, { ...urls, app });
    expect(config.url).toBe(url);
    expect(appOfUpdatesUrl(url)).toBe(app ?? 'default');
  });

  it('local stays without a URL whatever the app', () => {
    expect(updatesConfig('local', { app: 'shop' })).not.toHaveProperty('url');
  });

  it("keeps an address that already is the app's manifest URL, and refuses another manifest path", () => {
    const own = 'https://x.example.com/ferry/api/apps/shop/manifest';
    expect(updatesConfig('qa', { ...urls, developmentUrl: own, app: 'shop' }).url).toBe(own);
    expect(() => updatesConfig('qa', { ...urls, developmentUrl: own, app: 'games' })).toThrow(
      /developmentUrl ends in another manifest path than \/api\/apps\/games\/manifest/,
    );
    expect(() =>
      updatesConfig('qa', { ...urls, developmentUrl: 'https://x.example.com/api/updates/manifest', app: 'shop' }),
    ).toThrow(/another manifest path/);
    expect(() => updatesConfig('qa', { ...urls, developmentUrl: own })).toThrow(/another manifest path/);
  });

  it.each(['shop', 'a1', 'my-app', 'Shop', 'x', '1shop', 'my--app', 'my-app-', 'a/b', '', `a${'b'.repeat(40)}`])(
    'app %j: accepted exactly when the contracts accept the slug, with the same path',
    (app) => {
      if (AppSlug.safeParse(app).success) {
        expect(appManifestPath(app)).toBe(contractManifestPath(app));
        expect(updatesConfig('production', { ...urls, app }).url).toBe(
          `https://api.example.com${contractManifestPath(app)}`,
        );
      } else {
        expect(() => updatesConfig('production', { ...urls, app })).toThrow(/app must be an app slug/);
      }
    },
  );
});
