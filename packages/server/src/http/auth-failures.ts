import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError, Unauthenticated } from '../errors/domain-error.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Refused credentials counted per client address (http/auth-failures.ts). */
    authFailures: AuthFailures;
  }
}

/** An address that presented too many refused credentials: 429 until its window ends. */
export class TooManyAuthFailures extends DomainError {
  override name = 'TooManyAuthFailures';
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      'rate-limited',
      'RATE_LIMITED',
      `Too many failed authentications from this address; retry in ${retryAfterSeconds} s.`,
      { limit },
      retryAfterSeconds,
    );
  }
}

/** A limiter made by @fastify/rate-limit's `createRateLimit` (memory, or Redis with REDIS_URL). */
export type FailureLimiter = ReturnType<FastifyInstance['createRateLimit']>;

/** The counter's key: the client address as TRUST_PROXY resolves it, IPv6 by /64 like every limit. */
export const authFailureKey = (request: FastifyRequest): string =>
  // A socket that closed before the check has no address any more; its request goes nowhere anyway.
  `auth-failures:${request.ip ? normalizeIP(request.ip) : 'unknown'}`;

/**
 * Throttles credential guessing. Every place that checks a presented credential (bearer tokens,
 * the console session cookie and sign-in, user JWTs, the metrics and operator tokens) runs the
 * check through `check`: a refusal (Unauthenticated, i.e. 401) counts against the client address,
 * and while the address has `perMinute` refusals in its current minute every check answers 429
 * `RATE_LIMITED` with Retry-After, a correct credential included, so guessing cannot go on.
 * Accepted credentials and requests that present none count nothing. The counter is
 * @fastify/rate-limit's store, so it is shared through Redis with REDIS_URL and fails open with it.
 */
export class AuthFailures {
  constructor(
    private readonly limiter: FailureLimiter,
    readonly perMinute: number,
  ) {}

  async check<T>(request: FastifyRequest, verify: () => T | Promise<T>): Promise<T> {
    const state = await this.limiter(request, { increment: false });
    if (!state.isAllowed && state.remaining === 0) {
      throw new TooManyAuthFailures(this.perMinute, Math.max(1, state.ttlInSeconds));
    }
    try {
      return await verify();
    } catch (error) {
      if (error instanceof Unauthenticated) await this.limiter(request);
      throw error;
    }
  }
}
