import {
  AppSlug,
  DEFAULT_APP,
  OPERATOR_ROLES,
  type OperatorGrant,
  type OperatorRole,
  OperatorRoleSchema,
} from '@ferry/contracts';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { ConsoleOidcConfig } from '../config/console-oidc-config.js';

/** An operator as the identity provider vouches for them. */
export interface OidcOperator {
  subject: string;
  name: string;
  /** The highest role of its grants. */
  role: OperatorRole;
  grants: OperatorGrant[];
  /** The token's exp, in epoch milliseconds: a console session made with it ends no later. */
  expiresAtMs: number;
}

/**
 * Why an OIDC token was refused: `invalid` → 401, `no-role` → 403, `unavailable` (the JWKS could not
 * be fetched) → 503. The message never holds the token.
 */
export class OidcTokenRefused extends Error {
  override name = 'OidcTokenRefused';
  constructor(
    readonly reason: 'invalid' | 'no-role' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

/** The role a claim grants: a role name, or a list of them (groups) of which the highest counts. */
export function roleFromClaim(value: unknown): OperatorRole | undefined {
  const values = Array.isArray(value) ? value : [value];
  let best: OperatorRole | undefined;
  for (const role of OPERATOR_ROLES) if (values.includes(role)) best = role;
  return best;
}

/**
 * What a role claim grants, per app (docs/apps.md, "Operators"): each value is `<app>:<role>` (a
 * role in one app), `*:<role>` (in every app), or a bare role as before apps: `admin` in every app,
 * `viewer` and `releaser` in the default app. A string or a list of them; unknown values are ignored.
 */
export function grantsFromClaim(value: unknown): OperatorGrant[] {
  const values = Array.isArray(value) ? value : [value];
  const grants: OperatorGrant[] = [];
  for (const item of values) {
    if (typeof item !== 'string') continue;
    const at = item.lastIndexOf(':');
    const role = OperatorRoleSchema.safeParse(at < 0 ? item : item.slice(at + 1));
    if (!role.success) continue;
    if (at < 0) {
      grants.push({ app: role.data === 'admin' ? null : DEFAULT_APP, role: role.data });
      continue;
    }
    const app = item.slice(0, at);
    if (app === '*') grants.push({ app: null, role: role.data });
    else if (AppSlug.safeParse(app).success) grants.push({ app, role: role.data });
  }
  return grants;
}

const nameOf = (payload: JWTPayload, claim: string): string => {
  const value = payload[claim];
  return typeof value === 'string' && /^[^\s\p{Cc}]{1,254}$/u.test(value) ? value : String(payload.sub);
};

/** A three-part compact JWS: what an OIDC access or ID token looks like on the wire. */
export const looksLikeJwt = (value: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);

export type OidcOperatorVerifier = (token: string) => Promise<OidcOperator>;

/** Verifies a bearer JWT against the identity provider's JWKS (fetched and cached by jose), iss and aud. */
export function createOidcOperatorVerifier(config: ConsoleOidcConfig): OidcOperatorVerifier {
  const keys = createRemoteJWKSet(new URL(config.jwksUrl));
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        requiredClaims: ['sub', 'exp'],
        clockTolerance: 5,
      }));
    } catch (error) {
      const code = (error as { code?: string }).code;
      // No JOSE code: fetching the key set failed (a network error), which says nothing about the token.
      if (code === undefined || code === 'ERR_JWKS_TIMEOUT') {
        throw new OidcTokenRefused('unavailable', "The identity provider's key set cannot be fetched right now.");
      }
      throw new OidcTokenRefused('invalid', `The identity token is not valid (${code}).`);
    }
    const grants = grantsFromClaim(payload[config.roleClaim]);
    const role = roleFromClaim(grants.map((grant) => grant.role));
    if (!role) {
      throw new OidcTokenRefused(
        'no-role',
        `The identity token grants no operator role: its ${config.roleClaim} claim names none of viewer, releaser, admin (or <app>:<role>).`,
      );
    }
    return {
      subject: String(payload.sub),
      name: nameOf(payload, config.nameClaim),
      role,
      grants,
      expiresAtMs: (payload.exp ?? 0) * 1000,
    };
  };
}
