import type { DomainError } from '../errors/domain-error.js';
import type { VendorFailure } from '../vendors/vendor-client.js';
import {
  AuthExpired,
  AuthPending,
  AuthStateInvalid,
  VendorError,
  VendorRejected,
  VendorTimeout,
} from './certificate-errors.js';

/**
 * decisions §5: the domain error for what a vendor answered. `step` matters: a "pending" or
 * "expired" answer to a first call makes no sense and is the vendor's fault.
 */
export function errorForVendorFailure(
  failure: VendorFailure,
  context: { vendor: string; step: 'start' | 'complete'; timeoutMs: number; approvalWindowSeconds?: number },
): DomainError {
  const { vendor } = context;
  const kind =
    context.step === 'start' &&
    (failure.kind === 'pending' || failure.kind === 'expired' || failure.kind === 'state-invalid')
      ? 'unavailable'
      : failure.kind;
  switch (kind) {
    case 'pending':
      return new AuthPending();
    case 'expired':
      return new AuthExpired(context.approvalWindowSeconds);
    case 'state-invalid':
      return new AuthStateInvalid(context.approvalWindowSeconds);
    case 'rejected':
      return new VendorRejected(vendor, failure.vendorCode);
    case 'timeout':
      return new VendorTimeout(vendor, context.timeoutMs);
    case 'unavailable':
      return new VendorError(vendor, failure.vendorCode);
  }
}
