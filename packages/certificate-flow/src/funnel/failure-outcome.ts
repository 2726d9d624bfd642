import type { AlertKind } from './alerts.js';
import type { FunnelStep, PendingWork } from './funnel-state.js';

/** A failed call as the client sees it: the HTTP status (0 = no answer), the error body's code and details. */
export interface CallFailure {
  status: number;
  code: string;
  details?: Readonly<Record<string, unknown>>;
}

export interface FailureOutcome {
  step: FunnelStep;
  alert: AlertKind;
  /** Drop stepData/twoWayInfo: the authentication cannot be completed any more. */
  dropAuthentication: boolean;
}

/**
 * Where a failure leaves the person, per the spec: no error step, an alert, and the step from which
 * they can fix it. "Not approved yet" keeps them on confirm to press again; an expired or unusable
 * authentication returns them to the provider choice; wrong details return them to intro.
 */
export function failureOutcome(
  during: Exclude<PendingWork['kind'], 'resume'>,
  failure: CallFailure,
  /** Where the encryption runs: intro, or confirm when the back part was typed again there after a reload. */
  encryptingOn: FunnelStep = 'intro',
): FailureOutcome {
  const here: FunnelStep = during === 'encrypt' ? encryptingOn : during === 'start' ? 'simpleVerification' : 'confirm';
  const stay = (alert: AlertKind): FailureOutcome => ({ step: here, alert, dropAuthentication: false });
  const restartAuthentication = (alert: AlertKind): FailureOutcome => ({
    step: 'simpleVerification',
    alert,
    dropAuthentication: true,
  });

  // Only the cipher runs here, no call: a failure is the device's, never the network's.
  if (during === 'encrypt') return stay('encryptionUnavailable');
  switch (failure.code) {
    case 'AUTH_PENDING':
      return stay('notApprovedYet');
    case 'AUTH_EXPIRED':
    case 'AUTH_STATE_INVALID':
      return restartAuthentication('authenticationExpired');
    case 'UNSUPPORTED_PROVIDER':
      return restartAuthentication('unsupportedProvider');
    case 'VALIDATION_FAILED':
      return { step: 'intro', alert: 'invalidInput', dropAuthentication: true };
    case 'VENDOR_REJECTED':
      // The authentication was cancelled or not confirmed (or the details were refused): the provider
      // choice, where the person can try again or go back to fix their details without retyping first.
      return restartAuthentication('rejected');
    case 'VENDOR_MISMATCH':
      return stay('vendorMismatch');
    case 'ASSIGNMENT_NOT_FOUND':
      return stay('assignmentNotFound');
    case 'NOT_CERTIFIED':
      return stay('notCertified');
    case 'RATE_LIMITED':
      return stay('tooManyRequests');
    case 'STORAGE_FULL':
      // The document could not be stored (507): an outage on the service's side, the same request works later.
      return stay('unavailable');
  }
  if (failure.status === 401) return stay('signedOut');
  if (failure.status === 403) return stay('notCertified');
  if (failure.status === 429) return stay('tooManyRequests');
  // No answer at all: the connection, not the service, so the person checks it and presses again.
  if (failure.status === 0) return stay('network');
  // A vendor/gateway that is down or slow: worth trying again shortly.
  if (failure.status >= 502 && failure.status <= 504) return stay('unavailable');
  if (failure.status >= 400 && failure.status < 500) return stay('invalidInput');
  return stay('unexpected');
}
