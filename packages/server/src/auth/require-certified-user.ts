import type { FastifyRequest } from 'fastify';
import { NotCertified } from '../certificates/certificate-errors.js';
import { Unauthenticated } from '../errors/domain-error.js';
import type { AuthFailures } from '../http/auth-failures.js';
import { bearerTokenOf } from '../http/bearer-token.js';
import { type AuthenticatedUser, InvalidUserTokenError, type UserTokenVerifier } from './user-token-verifier.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireCertifiedUser; absent on routes without user authentication. */
    authUser?: AuthenticatedUser;
  }
}

const unauthorized = (message: string) => new Unauthenticated(message, 'Bearer realm="ferry-user"');

/** jose's code for a token whose signature verified but whose `exp` has passed. */
const EXPIRED = 'ERR_JWT_EXPIRED';

/**
 * An onRequest hook: runs before the body is read, so an unauthenticated caller costs no parsing.
 * Missing or invalid token → 401; a valid token without the certified claim → 403. With
 * `failures` (Ferry's own routes), an invalid token counts against the client address and an
 * address over its limit gets 429 (http/auth-failures.ts). An expired token is refused without
 * counting: its signature verified, so it is no guess, and apps on a carrier's shared address
 * (CGNAT) send expired tokens routinely before they refresh them.
 */
export function requireCertifiedUser(verify: UserTokenVerifier, certifiedClaim: string, failures?: AuthFailures) {
  const refused = () => unauthorized('The user token is not valid or has expired.');
  /** The user, or `expired`; throws 401 for any other refusal. */
  const verified = async (request: FastifyRequest, token: string): Promise<AuthenticatedUser | 'expired'> => {
    try {
      return await verify(token);
    } catch (error) {
      if (error instanceof InvalidUserTokenError) {
        request.log.debug({ reason: error.message }, 'user token refused');
        if (error.message === EXPIRED) return 'expired';
        throw refused();
      }
      throw error;
    }
  };
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerTokenOf(request);
    if (!token) throw unauthorized('A user token is required (Authorization: Bearer <JWT>).');
    const user = failures
      ? await failures.check(request, () => verified(request, token))
      : await verified(request, token);
    if (user === 'expired') throw refused();
    if (!user.certified) {
      throw new NotCertified(certifiedClaim);
    }
    request.authUser = user;
  };
}

/** The user a requireCertifiedUser hook admitted. */
export const certifiedUserOf = (request: FastifyRequest): AuthenticatedUser => {
  if (!request.authUser) throw new Error('route is missing the requireCertifiedUser hook');
  return request.authUser;
};
