import type { FastifyRequest } from 'fastify';
import { NotCertified } from '../certificates/certificate-errors.js';
import { Unauthenticated } from '../errors/domain-error.js';
import { bearerTokenOf } from '../http/bearer-token.js';
import { type AuthenticatedUser, InvalidUserTokenError, type UserTokenVerifier } from './user-token-verifier.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireCertifiedUser; absent on routes without user authentication. */
    authUser?: AuthenticatedUser;
  }
}

const unauthorized = (message: string) => new Unauthenticated(message, 'Bearer realm="ferry-user"');

/**
 * An onRequest hook: runs before the body is read, so an unauthenticated caller costs no parsing.
 * Missing or invalid token → 401; a valid token without the certified claim → 403.
 */
export function requireCertifiedUser(verify: UserTokenVerifier, certifiedClaim: string) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerTokenOf(request);
    if (!token) throw unauthorized('A user token is required (Authorization: Bearer <JWT>).');
    let user: AuthenticatedUser;
    try {
      user = await verify(token);
    } catch (error) {
      if (error instanceof InvalidUserTokenError) {
        request.log.debug({ reason: error.message }, 'user token refused');
        throw unauthorized('The user token is not valid or has expired.');
      }
      throw error;
    }
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
