import { FerryError, type KnownErrorCode } from '@ferry/contracts';

/**
 * What kind of failure a domain error is, in the domain's words. Services choose the kind; the one
 * error handler (http/error-handler.ts) decides what it means over HTTP, so no service names a status.
 */
export type FailureKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'not-acceptable'
  | 'conflict'
  | 'gone'
  | 'too-large'
  | 'unprocessable'
  | 'rate-limited'
  | 'dependency-failed'
  | 'unavailable'
  | 'dependency-timeout'
  | 'storage-full';

/**
 * The base of every error a Ferry service throws on purpose. Subclasses name the failure
 * (NativeFingerprintChanged, AuthPending, …) and carry the stable code clients branch on: a code of
 * the error catalogue (@ferry/contracts, docs/errors.md), whose status is the one its kind is
 * answered with (test/error-catalogue.test.ts holds both). Messages are for people and never carry
 * secrets or identity data.
 */
export class DomainError extends FerryError {
  override name = 'DomainError';
  constructor(
    readonly kind: FailureKind,
    code: KnownErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    /** When the same request may succeed later: sent as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message, details);
  }
}

/** A request without valid credentials; `challenge` is the scheme and realm the client should use. */
export class Unauthenticated extends DomainError {
  override name = 'Unauthenticated';
  constructor(
    message: string,
    readonly challenge: string,
  ) {
    super('unauthenticated', 'UNAUTHORIZED', message);
  }
}

/** Input a schema could not judge alone (it needed a key, the store, …), in the VALIDATION_FAILED shape. */
export class InvalidInput extends DomainError {
  override name = 'InvalidInput';
  constructor(fields: Array<{ path: string; message: string }>) {
    super('invalid', 'VALIDATION_FAILED', 'The request is invalid; see details.fields.', { fields });
  }
}

/** A dependency the request needs (the database, object storage) cannot be reached right now. */
export class DependencyUnavailable extends DomainError {
  override name = 'DependencyUnavailable';
  constructor(dependency: string, retryAfterSeconds = 5) {
    super(
      'unavailable',
      'UNAVAILABLE',
      `The service cannot reach its ${dependency} right now. The request changed nothing; try again shortly.`,
      { retryable: true },
      retryAfterSeconds,
    );
  }
}
