import { describe, expect, it } from 'vitest';
import { loadConsoleOidcConfig } from './console-oidc-config.js';
import { ConfigError } from './env.js';

describe('loadConsoleOidcConfig', () => {
  const base = {
    CONSOLE_OIDC_JWKS_URL: 'https://idp.example.com/.well-known/jwks.json',
    CONSOLE_OIDC_ISSUER: 'https://idp.example.com/',
    CONSOLE_OIDC_AUDIENCE: 'ferry',
  };
  it('is off without a JWKS URL', () => {
    expect(loadConsoleOidcConfig({})).toBeUndefined();
  });
  it('reads the settings, with default claims', () => {
    expect(loadConsoleOidcConfig(base)).toEqual({
      jwksUrl: base.CONSOLE_OIDC_JWKS_URL,
      issuer: base.CONSOLE_OIDC_ISSUER,
      audience: 'ferry',
      roleClaim: 'ferry_role',
      nameClaim: 'email',
    });
  });
  it.each([
    [{ ...base, CONSOLE_OIDC_ISSUER: undefined }, /CONSOLE_OIDC_ISSUER/],
    [{ ...base, CONSOLE_OIDC_AUDIENCE: undefined }, /CONSOLE_OIDC_AUDIENCE/],
    [{ ...base, CONSOLE_OIDC_JWKS_URL: 'ftp://idp.example.com/jwks' }, /CONSOLE_OIDC_JWKS_URL/],
    [{ CONSOLE_OIDC_ROLE_CLAIM: 'groups' }, /CONSOLE_OIDC_ROLE_CLAIM needs CONSOLE_OIDC_JWKS_URL/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConsoleOidcConfig(env)).toThrow(ConfigError);
    expect(() => loadConsoleOidcConfig(env)).toThrow(message);
  });
});
