import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/app-error.js';
import { bearerTokenOf, tokensMatch } from '../http/bearer-token.js';

const unauthorized = (message: string) =>
  new AppError(401, 'UNAUTHORIZED', message, {}, { 'www-authenticate': 'Bearer realm="ferry-operator"' });

/** An onRequest hook admitting only the operator token (constant-time comparison). */
export function requireOperator(expected: string) {
  return async (request: FastifyRequest): Promise<void> => {
    const presented = bearerTokenOf(request);
    if (!presented) throw unauthorized('An operator token is required (Authorization: Bearer <OPERATOR_TOKEN>).');
    if (!tokensMatch(presented, expected)) throw unauthorized('The operator token is not valid.');
  };
}
