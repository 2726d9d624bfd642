import type { CertificateVendor } from '@ferry/contracts';
import { AppError } from '../http/app-error.js';
import type { VendorFailure } from '../vendors/vendor-client.js';

/** Seconds a client should wait before repeating a second call that met AUTH_PENDING. */
export const AUTH_PENDING_RETRY_AFTER_SECONDS = 2;

export const authPending = () =>
  new AppError(
    409,
    'AUTH_PENDING',
    'The user has not approved the authentication in the provider app yet. Approve it, then send the same request again.',
    { retryable: true },
    { 'retry-after': String(AUTH_PENDING_RETRY_AFTER_SECONDS) },
  );

export const authExpired = () =>
  new AppError(410, 'AUTH_EXPIRED', 'The authentication has expired or was already used. Start again.', {
    retryable: false,
  });

export const authStateInvalid = () =>
  new AppError(403, 'AUTH_STATE_INVALID', 'This authentication does not belong to this request.');

/**
 * decisions §5 status codes for what a vendor answered. `step` matters: a "pending" or "expired"
 * answer to a first call makes no sense and is the vendor's fault.
 */
export function errorForVendorFailure(
  failure: VendorFailure,
  context: { vendor: CertificateVendor; step: 'start' | 'complete'; timeoutMs: number },
): AppError {
  const { vendor } = context;
  const details = { vendor, vendorCode: failure.vendorCode };
  const kind =
    context.step === 'start' &&
    (failure.kind === 'pending' || failure.kind === 'expired' || failure.kind === 'state-invalid')
      ? 'unavailable'
      : failure.kind;
  switch (kind) {
    case 'pending':
      return authPending();
    case 'expired':
      return authExpired();
    case 'state-invalid':
      return authStateInvalid();
    case 'rejected':
      return new AppError(
        422,
        'VENDOR_REJECTED',
        'The vendor refused the request: check the entered data, or the authentication was cancelled.',
        details,
      );
    case 'timeout':
      return new AppError(504, 'VENDOR_TIMEOUT', `${vendor} did not answer within ${context.timeoutMs} ms.`, {
        vendor,
        timeoutMs: context.timeoutMs,
      });
    case 'unavailable':
      return new AppError(502, 'VENDOR_ERROR', `${vendor} failed to answer properly. Try again later.`, details);
  }
}
