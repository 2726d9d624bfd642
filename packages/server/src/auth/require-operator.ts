import { requireBearerToken } from '../http/bearer-token.js';

/** An onRequest hook admitting only the operator token (constant-time comparison). */
export const requireOperator = (expected: string) =>
  requireBearerToken(expected, { realm: 'ferry-operator', noun: 'operator token', variable: 'OPERATOR_TOKEN' });
