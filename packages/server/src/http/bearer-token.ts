import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Unauthenticated } from '../errors/domain-error.js';
import type { AuthFailures } from './auth-failures.js';

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

export interface BearerTokenLabel {
  /** The WWW-Authenticate realm. */
  realm: string;
  /** What people call this token, in messages ("bearer token", "operator token"). */
  noun: string;
  /** The variable that configures it, named in the message that asks for it. */
  variable: string;
}

/**
 * Builds an onRequest hook that admits only requests carrying the expected token. A wrong token
 * counts against the client address in `failures` (http/auth-failures.ts).
 */
export function requireBearerToken(expected: string, label: BearerTokenLabel, failures: AuthFailures) {
  const unauthorized = (message: string) => new Unauthenticated(message, `Bearer realm="${label.realm}"`);
  const article = /^[aeiou]/i.test(label.noun) ? 'An' : 'A';
  return async (request: FastifyRequest): Promise<void> => {
    const presented = bearerTokenOf(request);
    if (!presented)
      throw unauthorized(`${article} ${label.noun} is required (Authorization: Bearer <${label.variable}>).`);
    await failures.check(request, () => {
      if (!tokensMatch(presented, expected)) throw unauthorized(`The ${label.noun} is not valid.`);
    });
  };
}
