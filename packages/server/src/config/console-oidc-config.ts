import { z } from 'zod';
import { ConfigError, type Env } from './env.js';

/**
 * Optional single sign-on for operators (docs/console.md, "Operator access"): a bearer JWT from the
 * team's identity provider, verified against its JWKS, whose role claim names an operator role.
 * Undefined when CONSOLE_OIDC_JWKS_URL is unset; then only operator tokens (and the release token) count.
 */
export interface ConsoleOidcConfig {
  jwksUrl: string;
  issuer: string;
  audience: string;
  /** The claim holding `viewer`, `releaser` or `admin` (a string, or an array whose highest role counts). */
  roleClaim: string;
  /** The claim audited as the operator's name (`operator:<name>`); `sub` when the token lacks it. */
  nameClaim: string;
}

const ConsoleOidcEnv = z.object({
  CONSOLE_OIDC_JWKS_URL: z.url({ protocol: /^https?$/, error: 'CONSOLE_OIDC_JWKS_URL must be an http(s) URL' }),
  CONSOLE_OIDC_ISSUER: z.string({ error: 'CONSOLE_OIDC_ISSUER is required with CONSOLE_OIDC_JWKS_URL' }).min(1),
  CONSOLE_OIDC_AUDIENCE: z.string({ error: 'CONSOLE_OIDC_AUDIENCE is required with CONSOLE_OIDC_JWKS_URL' }).min(1),
  CONSOLE_OIDC_ROLE_CLAIM: z.string().min(1).default('ferry_role'),
  CONSOLE_OIDC_NAME_CLAIM: z.string().min(1).default('email'),
});

const VARIABLES = [
  'CONSOLE_OIDC_ISSUER',
  'CONSOLE_OIDC_AUDIENCE',
  'CONSOLE_OIDC_ROLE_CLAIM',
  'CONSOLE_OIDC_NAME_CLAIM',
] as const;

export function loadConsoleOidcConfig(env: Env): ConsoleOidcConfig | undefined {
  if (env.CONSOLE_OIDC_JWKS_URL === undefined) {
    const stray = VARIABLES.find((name) => env[name] !== undefined);
    if (stray)
      throw new ConfigError(`${stray} needs CONSOLE_OIDC_JWKS_URL (operator single sign-on is off without it)`);
    return undefined;
  }
  const parsed = ConsoleOidcEnv.safeParse(env);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ConfigError(
      `Invalid ${String(first?.path[0] ?? 'CONSOLE_OIDC_*')}: ${first?.message ?? 'invalid value'}`,
    );
  }
  const e = parsed.data;
  return {
    jwksUrl: e.CONSOLE_OIDC_JWKS_URL,
    issuer: e.CONSOLE_OIDC_ISSUER,
    audience: e.CONSOLE_OIDC_AUDIENCE,
    roleClaim: e.CONSOLE_OIDC_ROLE_CLAIM,
    nameClaim: e.CONSOLE_OIDC_NAME_CLAIM,
  };
}
