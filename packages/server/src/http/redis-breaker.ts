import type { FastifyBaseLogger } from 'fastify';
import type { RedisBreakerPolicy } from '../config/config.js';

/**
 * A circuit breaker in front of the rate-limit Redis. `closed`: commands go to Redis, and
 * `slowInARow` counts the ones that ran into the command timeout since the last answer. `open`:
 * no command is sent until the cool-down since `openedAt` has passed; the limiter fails open at once
 * (requests pass unlimited). `probing`: the one command sent after the cool-down is under way; the
 * others still fail at once.
 */
export type BreakerState =
  | { phase: 'closed'; slowInARow: number }
  | { phase: 'open'; openedAt: number }
  | { phase: 'probing' };

/**
 * `call`: a command is about to be sent. `answered`: Redis answered one (a reply error included:
 * Redis is there). `timed-out`: one waited for the whole command timeout. `failed`: one failed
 * at once (no connection: ioredis has no offline queue), which costs a request nothing.
 */
export type BreakerEvent =
  | { kind: 'call'; now: number }
  | { kind: 'answered' }
  | { kind: 'timed-out'; now: number }
  | { kind: 'failed'; now: number };

export const CLOSED: BreakerState = { phase: 'closed', slowInARow: 0 };

export const DEFAULT_BREAKER_POLICY: RedisBreakerPolicy = { tripAfter: 3, coolDownMs: 5000 };

/**
 * The breaker's one rule: the state after an event, and for a `call` whether the command may go to
 * Redis. Only timeouts open the breaker, since only they cost requests time; a fast failure neither
 * opens it nor counts as an answer. Outcomes of commands sent before the breaker opened leave an
 * open breaker open.
 */
export function breakerStep(
  state: BreakerState,
  event: BreakerEvent,
  policy: RedisBreakerPolicy,
): { state: BreakerState; admit: boolean } {
  switch (event.kind) {
    case 'call':
      if (state.phase === 'closed') return { state, admit: true };
      if (state.phase === 'open' && event.now - state.openedAt >= policy.coolDownMs) {
        return { state: { phase: 'probing' }, admit: true };
      }
      return { state, admit: false };
    case 'answered':
      return { state: state.phase === 'open' ? state : CLOSED, admit: false };
    case 'timed-out':
      if (state.phase === 'probing') return { state: { phase: 'open', openedAt: event.now }, admit: false };
      if (state.phase === 'open') return { state, admit: false };
      return state.slowInARow + 1 >= policy.tripAfter
        ? { state: { phase: 'open', openedAt: event.now }, admit: false }
        : { state: { phase: 'closed', slowInARow: state.slowInARow + 1 }, admit: false };
    case 'failed':
      return {
        state: state.phase === 'probing' ? { phase: 'open', openedAt: event.now } : state,
        admit: false,
      };
  }
}

/** Refused by an open breaker; the rate limiter treats it like any Redis error (fail open). */
export class RedisBreakerOpen extends Error {
  override name = 'RedisBreakerOpen';
  constructor() {
    super('rate-limit Redis is not being asked (circuit breaker open)');
  }
}

type Callback<T> = (error: Error | null, result?: T) => void;

/** ioredis rejects a command that outlived `commandTimeout` with this message. */
const isTimeout = (error: Error): boolean => error.message === 'Command timed out';

/**
 * The breaker around every rate-limit command (rate-limit-store.ts). Logs the opening and the
 * closing once each per outage (never the URL: it may hold a password); a failed probe re-opens it
 * silently.
 */
export class RedisBreaker {
  private current: BreakerState = CLOSED;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly policy: RedisBreakerPolicy = DEFAULT_BREAKER_POLICY,
    private readonly clock: () => number = Date.now,
  ) {}

  get state(): BreakerState {
    return this.current;
  }

  /** Sends one command through the breaker, or fails it at once with RedisBreakerOpen. */
  run<T>(send: (done: Callback<T>) => void, callback: Callback<T>): void {
    if (!this.apply({ kind: 'call', now: this.clock() })) {
      callback(new RedisBreakerOpen());
      return;
    }
    send((error, result) => {
      if (!error) this.apply({ kind: 'answered' });
      else this.apply({ kind: isTimeout(error) ? 'timed-out' : 'failed', now: this.clock() });
      callback(error, result);
    });
  }

  private apply(event: BreakerEvent): boolean {
    const before = this.current;
    const { state, admit } = breakerStep(before, event, this.policy);
    this.current = state;
    if (before.phase === 'closed' && state.phase === 'open') {
      this.log.warn(
        { timeouts: this.policy.tripAfter, coolDownMs: this.policy.coolDownMs },
        'rate-limit Redis is not answering: requests pass without rate limiting; probing it again after each cool-down',
      );
    } else if (before.phase !== 'closed' && state.phase === 'closed') {
      this.log.info('rate-limit Redis answers again: rate limits apply');
    }
    return admit;
  }
}
