import { describe, expect, it } from 'vitest';
import { DependencyUnavailable, InvalidInput } from '../errors/domain-error.js';
import {
  AssignmentNotFound,
  AuthExpired,
  AuthPending,
  AuthStateInvalid,
  UnsupportedProvider,
  VendorError,
  VendorMismatch,
  VendorRejected,
  VendorTimeout,
} from './certificate-errors.js';
import { certificateFlowFailed, certificateFlowSucceeded } from './flow-outcome.js';

describe('certificate flow outcomes', () => {
  it('name a success by its step', () => {
    expect(certificateFlowSucceeded('start')).toBe('started');
    expect(certificateFlowSucceeded('complete')).toBe('issued');
  });

  it.each([
    [new AuthPending(), 'pending'],
    [new AuthExpired(), 'expired'],
    [new AuthStateInvalid(), 'state-invalid'],
    [new UnsupportedProvider('VENDOR_B', 'provider_a'), 'unsupported-provider'],
    [new InvalidInput([{ path: 'body.identityEnc', message: 'x' }]), 'invalid'],
    [new AssignmentNotFound('a'), 'assignment-refused'],
    [new VendorMismatch('a', 'VENDOR_A', 'VENDOR_B'), 'assignment-refused'],
    [new VendorRejected('VENDOR_A', 'E1'), 'rejected'],
    [new VendorError('VENDOR_A', null), 'vendor-error'],
    [new VendorTimeout('VENDOR_B', 30_000), 'vendor-timeout'],
    [new DependencyUnavailable('database'), 'unavailable'],
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'unavailable'],
    [new TypeError('a bug'), 'error'],
  ])('name a failure by the error it answers: %s → %s', (error, outcome) => {
    expect(certificateFlowFailed(error)).toBe(outcome);
  });
});
