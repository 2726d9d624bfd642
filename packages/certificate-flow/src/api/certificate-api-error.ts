import { FerryHttpError } from '@ferry/contracts';
import type { CallFailure } from '../funnel/failure-outcome.js';

/**
 * A certificate API call that did not succeed. `status` 0 means no HTTP answer (network down,
 * CORS, aborted); `code` is the error body's stable code, or NETWORK_ERROR / INVALID_RESPONSE.
 */
export class CertificateApiError extends FerryHttpError implements CallFailure {
  override name = 'CertificateApiError';
}
