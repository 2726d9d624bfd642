import { describe, expect, it } from 'vitest';
import { STATUS_BY_KIND } from '../http/error-handler.js';
import { VendorFailure, type VendorFailureKind } from '../vendors/vendor-client.js';
import { errorForVendorFailure } from './vendor-failure-errors.js';

// decisions §5 status codes for vendor outcomes: [kind, step, status, code].
const rows: Array<[VendorFailureKind, 'start' | 'complete', number, string]> = [
  ['pending', 'complete', 409, 'AUTH_PENDING'],
  ['expired', 'complete', 410, 'AUTH_EXPIRED'],
  ['state-invalid', 'complete', 403, 'AUTH_STATE_INVALID'],
  ['rejected', 'complete', 422, 'VENDOR_REJECTED'],
  ['unavailable', 'complete', 502, 'VENDOR_ERROR'],
  ['timeout', 'complete', 504, 'VENDOR_TIMEOUT'],
  ['rejected', 'start', 422, 'VENDOR_REJECTED'],
  ['unavailable', 'start', 502, 'VENDOR_ERROR'],
  ['timeout', 'start', 504, 'VENDOR_TIMEOUT'],
  // Answers that make no sense for a first call are the vendor's fault.
  ['pending', 'start', 502, 'VENDOR_ERROR'],
  ['expired', 'start', 502, 'VENDOR_ERROR'],
  ['state-invalid', 'start', 502, 'VENDOR_ERROR'],
];

describe('errorForVendorFailure', () => {
  it.each(rows)('%s on %s → %i %s', (kind, step, status, code) => {
    const error = errorForVendorFailure(new VendorFailure(kind, 'X-1', 'm'), {
      vendor: 'VENDOR_A',
      step,
      timeoutMs: 30_000,
    });
    expect(STATUS_BY_KIND[error.kind]).toBe(status);
    expect(error.code).toBe(code);
  });

  it('AUTH_PENDING is marked retryable with Retry-After', () => {
    const error = errorForVendorFailure(new VendorFailure('pending', null, 'm'), {
      vendor: 'VENDOR_B',
      step: 'complete',
      timeoutMs: 1,
    });
    expect(error.details).toEqual({ retryable: true });
    expect(error.retryAfterSeconds).toBe(2);
  });

  it('VENDOR_REJECTED carries the vendor and its code', () => {
    const error = errorForVendorFailure(new VendorFailure('rejected', 'CF-12102', 'm'), {
      vendor: 'VENDOR_B',
      step: 'complete',
      timeoutMs: 1,
    });
    expect(error.details).toEqual({ vendor: 'VENDOR_B', vendorCode: 'CF-12102' });
  });
});
