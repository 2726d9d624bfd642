import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Compares in constant time. Both sides are hashed first so the comparison does not leak the
 * expected token's length either.
 */
export function tokensMatch(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

const unauthorized = (message: string) =>
  new AppError(401, 'UNAUTHORIZED', message, {}, { 'www-authenticate': 'Bearer realm="ferry"' });

/** Builds a preHandler that admits only requests carrying the release token. */
export function requireBearerToken(expected: string) {
  return async (request: FastifyRequest): Promise<void> => {
    const presented = bearerTokenOf(request);
    if (!presented) throw unauthorized('A bearer token is required (Authorization: Bearer <OTA_RELEASE_TOKEN>).');
    if (!tokensMatch(presented, expected)) throw unauthorized('The bearer token is not valid.');
  };
}
