import { describe, expect, it } from 'vitest';
import { type FailureOutcome, failureOutcome } from '../../src/funnel/failure-outcome.js';
import type { PendingWork } from '../../src/funnel/funnel-state.js';

type Row = [
  Exclude<PendingWork['kind'], 'resume'>,
  number,
  string,
  FailureOutcome['step'],
  FailureOutcome['alert'],
  boolean,
];

// during, status, code → step, alert, drop authentication state
const TABLE: Row[] = [
  ['complete', 409, 'AUTH_PENDING', 'confirm', 'notApprovedYet', false],
  ['complete', 410, 'AUTH_EXPIRED', 'simpleVerification', 'authenticationExpired', true],
  ['complete', 403, 'AUTH_STATE_INVALID', 'simpleVerification', 'authenticationExpired', true],
  ['complete', 422, 'VENDOR_REJECTED', 'simpleVerification', 'rejected', true],
  ['complete', 400, 'VALIDATION_FAILED', 'intro', 'invalidInput', true],
  ['complete', 502, 'VENDOR_ERROR', 'confirm', 'unavailable', false],
  ['complete', 504, 'VENDOR_TIMEOUT', 'confirm', 'unavailable', false],
  ['complete', 0, 'NETWORK_ERROR', 'confirm', 'network', false],
  ['complete', 429, 'RATE_LIMITED', 'confirm', 'tooManyRequests', false],
  ['complete', 401, 'UNAUTHORIZED', 'confirm', 'signedOut', false],
  ['complete', 507, 'STORAGE_FULL', 'confirm', 'unavailable', false],
  ['complete', 500, 'INTERNAL', 'confirm', 'unexpected', false],
  ['start', 400, 'UNSUPPORTED_PROVIDER', 'simpleVerification', 'unsupportedProvider', true],
  ['start', 400, 'VALIDATION_FAILED', 'intro', 'invalidInput', true],
  ['start', 400, 'VENDOR_MISMATCH', 'simpleVerification', 'vendorMismatch', false],
  ['start', 404, 'ASSIGNMENT_NOT_FOUND', 'simpleVerification', 'assignmentNotFound', false],
  ['start', 422, 'VENDOR_REJECTED', 'simpleVerification', 'rejected', true],
  ['start', 0, 'NETWORK_ERROR', 'simpleVerification', 'network', false],
  ['start', 403, 'NOT_CERTIFIED', 'simpleVerification', 'notCertified', false],
  ['start', 403, 'FORBIDDEN', 'simpleVerification', 'notCertified', false],
  ['start', 401, 'UNAUTHORIZED', 'simpleVerification', 'signedOut', false],
  ['start', 413, 'PAYLOAD_TOO_LARGE', 'simpleVerification', 'invalidInput', false],
  ['start', 503, 'UNAVAILABLE', 'simpleVerification', 'unavailable', false],
  ['start', -1, 'CLIENT_ERROR', 'simpleVerification', 'unexpected', false],
  ['encrypt', -1, 'CLIENT_ERROR', 'intro', 'encryptionUnavailable', false],
];

describe('failure outcome: no error step, an alert and the step to fix it from', () => {
  it.each(TABLE)('%s failing with %i %s → %s with %s', (during, status, code, step, alert, drop) => {
    expect(failureOutcome(during, { status, code })).toEqual({ step, alert, dropAuthentication: drop });
  });

  it('keeps a failed encryption where it ran: confirm, when the back part was typed again there', () => {
    expect(failureOutcome('encrypt', { status: -1, code: 'CLIENT_ERROR' }, 'confirm')).toEqual({
      step: 'confirm',
      alert: 'encryptionUnavailable',
      dropAuthentication: false,
    });
  });
});
