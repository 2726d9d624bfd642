import { isStorableText } from '@ferry/contracts';
import { createRemoteJWKSet, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';

export interface UserAuthConfig {
  /** HS256 shared secret; exactly one of secret and jwksUrl is set. */
  secret?: string;
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /** Name of the boolean claim that marks a certified user (default `certified`). */
  certifiedClaim: string;
}

export interface AuthenticatedUser {
  userId: string;
  certified: boolean;
}

/** Why a token was refused; the route turns this into 401. The reason is for logs, never the token. */
export class InvalidUserTokenError extends Error {
  override name = 'InvalidUserTokenError';
}

export type UserTokenVerifier = (token: string) => Promise<AuthenticatedUser>;

/** HS256 with a shared secret, or asymmetric keys from a JWKS endpoint; iss and aud only when configured. */
export function createUserTokenVerifier(config: UserAuthConfig): UserTokenVerifier {
  const options = {
    ...(config.issuer ? { issuer: config.issuer } : {}),
    ...(config.audience ? { audience: config.audience } : {}),
    requiredClaims: ['sub', 'exp'],
    clockTolerance: 5,
  };
  let verify: (token: string) => Promise<JWTPayload>;
  if (config.secret) {
    // Imported once: given raw bytes, jose imports a WebCrypto key on every verification, work
    // that every request would repeat for the same secret.
    const key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(config.secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    verify = async (token) => (await jwtVerify(token, await key, { ...options, algorithms: ['HS256'] })).payload;
  } else if (config.jwksUrl) {
    const keys: JWTVerifyGetKey = createRemoteJWKSet(new URL(config.jwksUrl));
    verify = async (token) =>
      (await jwtVerify(token, keys, { ...options, algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'] })).payload;
  } else {
    throw new Error('user authentication needs AUTH_JWT_SECRET or AUTH_JWKS_URL');
  }
  // A client sends the same token on every call of a flow. With a fixed shared secret, a token that
  // verified once stays valid until its exp (the only time-dependent claim checked: nbf was already
  // past, no max age), so the exact token string is remembered until then. Not for JWKS, where a
  // key may be withdrawn before the token expires.
  const verified = config.secret ? new Map<string, { user: AuthenticatedUser; expiresAtMs: number }>() : undefined;
  return async (token) => {
    const known = verified?.get(token);
    if (known) {
      if (Date.now() < known.expiresAtMs) return known.user;
      verified?.delete(token);
    }
    let payload: JWTPayload;
    try {
      payload = await verify(token);
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'ERR_JWT_INVALID';
      throw new InvalidUserTokenError(code);
    }
    // The user id is stored and logged: one line of at most 255 characters, like CreateAssignmentRequest.userId.
    if (
      typeof payload.sub !== 'string' ||
      payload.sub.length === 0 ||
      payload.sub.length > 255 ||
      !isStorableText(payload.sub)
    ) {
      throw new InvalidUserTokenError('ERR_JWT_SUB');
    }
    const user = { userId: payload.sub, certified: payload[config.certifiedClaim] === true };
    if (verified && typeof payload.exp === 'number') {
      // Bounded: forgotten wholesale when full; a forgotten token is simply verified again.
      if (verified.size >= 10_000) verified.clear();
      verified.set(token, { user, expiresAtMs: (payload.exp + options.clockTolerance) * 1000 });
    }
    return user;
  };
}
