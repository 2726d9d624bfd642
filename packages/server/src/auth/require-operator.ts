import type { AuthFailures } from '../http/auth-failures.js';
import { requireBearerToken } from '../http/bearer-token.js';

/** An onRequest hook admitting only the operator token (constant-time comparison; wrong ones count in `failures`). */
export const requireOperator = (expected: string, failures: AuthFailures) =>
  requireBearerToken(
    expected,
    { realm: 'ferry-operator', noun: 'operator token', variable: 'OPERATOR_TOKEN' },
    failures,
  );
