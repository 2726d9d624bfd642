import { describe, expect, it } from 'vitest';
import { type BreakerEvent, type BreakerState, breakerStep, CLOSED } from './redis-breaker.js';

const policy = { tripAfter: 3, coolDownMs: 1000 };
const closed = (slowInARow: number): BreakerState => ({ phase: 'closed', slowInARow });
const open = (openedAt: number): BreakerState => ({ phase: 'open', openedAt });
const probing: BreakerState = { phase: 'probing' };
const call = (now: number): BreakerEvent => ({ kind: 'call', now });
const answered: BreakerEvent = { kind: 'answered' };
const timedOut = (now: number): BreakerEvent => ({ kind: 'timed-out', now });
const failed = (now: number): BreakerEvent => ({ kind: 'failed', now });

describe('breakerStep', () => {
  it.each<[string, BreakerState, BreakerEvent, BreakerState, boolean]>([
    ['closed: a call goes to Redis', closed(0), call(10), closed(0), true],
    ['closed: a call goes to Redis after timeouts below the threshold', closed(2), call(10), closed(2), true],
    ['closed: an answer resets the count', closed(2), answered, CLOSED, false],
    ['closed: a timeout is counted', closed(0), timedOut(10), closed(1), false],
    ['closed: a timeout below the threshold is counted', closed(1), timedOut(10), closed(2), false],
    ['closed: the threshold-th timeout in a row opens it', closed(2), timedOut(10), open(10), false],
    ['closed: a fast failure (no connection) neither counts nor resets', closed(2), failed(10), closed(2), false],
    ['open: a call is refused during the cool-down', open(10), call(1009), open(10), false],
    ['open: after the cool-down one call probes', open(10), call(1010), probing, true],
    ['open: a late answer of an earlier call leaves it open', open(10), answered, open(10), false],
    ['open: a late timeout of an earlier call leaves it open', open(10), timedOut(500), open(10), false],
    ['open: a fast failure leaves it open', open(10), failed(500), open(10), false],
    ['probing: other calls are refused while the probe is out', probing, call(5000), probing, false],
    ['probing: the probe answered, it closes', probing, answered, CLOSED, false],
    ['probing: the probe timed out, it opens again from now', probing, timedOut(5000), open(5000), false],
    ['probing: the probe failed at once, it opens again from now', probing, failed(5000), open(5000), false],
  ])('%s', (_name, state, event, next, admit) => {
    expect(breakerStep(state, event, policy)).toEqual({ state: next, admit });
  });

  it('with a threshold of 1 the first timeout opens it', () => {
    expect(breakerStep(CLOSED, timedOut(7), { tripAfter: 1, coolDownMs: 1 }).state).toEqual(open(7));
  });
});
