import type { CertificateDocument, ProviderCode } from '@ferry/contracts';

export type AuthenticationStatus = 'pending' | 'completing' | 'issued';

/** What an authentication is bound to: the user, the request's vendor, document, provider and assignment. */
export interface AuthenticationBinding {
  userId: string;
  vendor: string;
  document: CertificateDocument;
  provider: ProviderCode;
  assignmentId: string | null;
}

/**
 * A started simple authentication, recorded when the first call answers. It binds the vendor's
 * state (by hash only) to a user, a document, a provider and optionally an assignment.
 */
export interface AuthenticationState extends AuthenticationBinding {
  id: string;
  stateHash: string;
  status: AuthenticationStatus;
  /** While status is completing: until when the second call that took the lease may hold it. */
  leaseUntil: number | null;
  expiresAt: number;
  createdAt: number;
}

/** What a second call claims: its state, and the binding the state must have been recorded with. */
export interface BoundClaim extends AuthenticationBinding {
  stateHash: string;
  now: number;
  leaseUntil: number;
}

/** The AuthStateStore port. */
export interface AuthenticationStateStore {
  record(state: AuthenticationState): Promise<void>;
  findByHash(stateHash: string): Promise<AuthenticationState | undefined>;
  /** The state with this id, whoever it belongs to (the caller checks the owner). */
  findById(id: string): Promise<AuthenticationState | undefined>;
  /**
   * Takes the completion lease: succeeds for a pending state, or a completing one whose lease ran
   * out (its holder died). Exactly one of several concurrent second calls gets it.
   */
  claim(id: string, now: number, leaseUntil: number): Promise<boolean>;
  /**
   * The second call's usual case in one statement: takes the lease of the state with this hash
   * only if it is bound to exactly this call, unexpired, and claimable as in `claim`. Answers the
   * state's id, or undefined when any of that does not hold; the caller then finds out why.
   */
  claimBound(claim: BoundClaim): Promise<string | undefined>;
  /** Gives the lease back after a second call that did not issue (pending, failed). */
  release(id: string): Promise<void>;
  /** Forgets unissued states that expired before `before`. */
  deleteStale(before: number): Promise<number>;
}
