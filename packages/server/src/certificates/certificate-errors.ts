import type { ProviderCode } from '@ferry/contracts';
import { DomainError } from '../errors/domain-error.js';
import { unsupportedProviderMessage } from './provider-support.js';

/**
 * The certificate area's failures (docs/certificates.md "Errors"), named. Each says what kind of
 * failure it is; the one error handler turns the kind into the status. Codes, messages and details
 * are what clients branch on and show: never change one without the contract. No message carries
 * an identity number, a token or a key.
 */

/** Seconds a client should wait before repeating a second call that met AUTH_PENDING. */
export const AUTH_PENDING_RETRY_AFTER_SECONDS = 2;

/** The second call came before the person approved in the provider app (or while the same call is still completing). */
export class AuthPending extends DomainError {
  override name = 'AuthPending';
  constructor() {
    super(
      'conflict',
      'AUTH_PENDING',
      'The user has not approved the authentication in the provider app yet. Approve it, then send the same request again.',
      { retryable: true },
      AUTH_PENDING_RETRY_AFTER_SECONDS,
    );
  }
}

/**
 * The vendor's approval window (`<VENDOR>_AUTH_TTL_SECONDS`), in the details of the answers that
 * send the person back to the provider choice, so a client can say how long they have next time.
 */
const approvalWindow = (seconds: number | undefined) =>
  seconds === undefined ? {} : { approvalWindowSeconds: seconds };

/** The authentication timed out, was used up, or its PDF was removed by retention: start again. */
export class AuthExpired extends DomainError {
  override name = 'AuthExpired';
  constructor(approvalWindowSeconds?: number) {
    super('gone', 'AUTH_EXPIRED', 'The authentication has expired or was already used. Start again.', {
      retryable: false,
      ...approvalWindow(approvalWindowSeconds),
    });
  }
}

/** The vendor state is unknown (tampered) or bound to another user, document, vendor, provider or assignment. */
export class AuthStateInvalid extends DomainError {
  override name = 'AuthStateInvalid';
  constructor(approvalWindowSeconds?: number) {
    super(
      'forbidden',
      'AUTH_STATE_INVALID',
      'This authentication does not belong to this request.',
      approvalWindow(approvalWindowSeconds),
    );
  }
}

/** Another user's authentication is indistinguishable from a missing one: no probing of ids. */
export class AuthenticationNotFound extends DomainError {
  override name = 'AuthenticationNotFound';
  constructor() {
    super('not-found', 'AUTHENTICATION_NOT_FOUND', 'No such authentication for this user.');
  }
}

/** The chosen vendor does not take this provider (not in its table, or switched off); no vendor call was made. */
export class UnsupportedProvider extends DomainError {
  override name = 'UnsupportedProvider';
  constructor(vendor: string, provider: ProviderCode) {
    super('invalid', 'UNSUPPORTED_PROVIDER', unsupportedProviderMessage(vendor, provider), {
      vendor,
      loginOrgCd: provider,
    });
  }
}

/** The assignment is issued through another vendor than the request names. */
export class VendorMismatch extends DomainError {
  override name = 'VendorMismatch';
  constructor(assignmentId: string, certificateVendor: string, vendor: string) {
    super('invalid', 'VENDOR_MISMATCH', `This assignment is issued through ${certificateVendor}, not ${vendor}.`, {
      assignmentId,
      certificateVendor,
      vendor,
    });
  }
}

/** Another user's assignment is indistinguishable from a missing one: no probing of ids. */
export class AssignmentNotFound extends DomainError {
  override name = 'AssignmentNotFound';
  constructor(assignmentId: string) {
    super('not-found', 'ASSIGNMENT_NOT_FOUND', 'No such assignment for this user.', { assignmentId });
  }
}

/** A valid user token without the certified claim. */
export class NotCertified extends DomainError {
  override name = 'NotCertified';
  constructor(claim: string) {
    super('forbidden', 'NOT_CERTIFIED', 'Only certified users can request certificates.', { claim });
  }
}

/** The vendor refused the person, or the person cancelled in the provider app. */
export class VendorRejected extends DomainError {
  override name = 'VendorRejected';
  constructor(vendor: string, vendorCode: string | null) {
    super(
      'unprocessable',
      'VENDOR_REJECTED',
      'The vendor refused the request: check the entered data, or the authentication was cancelled.',
      { vendor, vendorCode },
    );
  }
}

/** The vendor failed, answered garbage (or a document that is not a PDF), or refused our account. */
export class VendorError extends DomainError {
  override name = 'VendorError';
  constructor(
    vendor: string,
    vendorCode: string | null,
    message = `${vendor} failed to answer properly. Try again later.`,
  ) {
    super('dependency-failed', 'VENDOR_ERROR', message, { vendor, vendorCode });
  }
}

/** No vendor answer within VENDOR_TIMEOUT_MS. */
export class VendorTimeout extends DomainError {
  override name = 'VendorTimeout';
  constructor(vendor: string, timeoutMs: number) {
    super('dependency-timeout', 'VENDOR_TIMEOUT', `${vendor} did not answer within ${timeoutMs} ms.`, {
      vendor,
      timeoutMs,
    });
  }
}
