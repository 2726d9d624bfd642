import { DomainError } from '../errors/domain-error.js';
import type { CertificateFlowOutcome } from '../metrics/ferry-metrics.js';
import { isDatabaseUnavailable } from '../storage/database-unavailable.js';

/** The outcome label of each error code a certificate request can end with. */
const OUTCOME_BY_CODE: Readonly<Record<string, CertificateFlowOutcome>> = {
  AUTH_PENDING: 'pending',
  AUTH_EXPIRED: 'expired',
  AUTH_STATE_INVALID: 'state-invalid',
  UNSUPPORTED_PROVIDER: 'unsupported-provider',
  VALIDATION_FAILED: 'invalid',
  ASSIGNMENT_NOT_FOUND: 'assignment-refused',
  VENDOR_MISMATCH: 'assignment-refused',
  VENDOR_REJECTED: 'rejected',
  VENDOR_ERROR: 'vendor-error',
  VENDOR_TIMEOUT: 'vendor-timeout',
  UNAVAILABLE: 'unavailable',
};

/** How a certificate request that succeeded ended, for `ferry_certificate_flows_total`: by its step. */
export const certificateFlowSucceeded = (step: 'start' | 'complete'): CertificateFlowOutcome =>
  step === 'start' ? 'started' : 'issued';

/**
 * How a certificate request that failed ended: the error code it answers with (a database outage
 * counts as `unavailable`, anything unforeseen as `error`). A bounded set, so the series stay few.
 */
export function certificateFlowFailed(error: unknown): CertificateFlowOutcome {
  if (error instanceof DomainError) return OUTCOME_BY_CODE[error.code] ?? 'error';
  return isDatabaseUnavailable(error) ? 'unavailable' : 'error';
}
