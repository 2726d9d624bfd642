import type { AuthenticationBinding, AuthenticationState } from './authentication-state-store.js';

/** Who is making a second call, and for what. */
export interface SecondCall extends AuthenticationBinding {
  now: number;
}

export type BindingVerdict =
  /** Proceed to the vendor. */
  | { kind: 'complete' }
  /** Already issued for this state: answer the same document again, no vendor call. */
  | { kind: 'reissue' }
  /** No usable binding: unknown (tampered) state, or it belongs to another user or document. */
  | { kind: 'invalid'; reason: 'unknown-state' | 'other-user' | 'other-vendor' | 'other-document' | 'other-request' }
  | { kind: 'expired' };

/**
 * decisions §5 "Binding": a second call must come from the user who started the authentication,
 * for the same document (and vendor, provider, assignment). An issued state answers its document
 * again (retry safety); an unissued one past its lifetime is expired.
 */
export function checkBinding(state: AuthenticationState | undefined, call: SecondCall): BindingVerdict {
  if (!state) return { kind: 'invalid', reason: 'unknown-state' };
  if (state.userId !== call.userId) return { kind: 'invalid', reason: 'other-user' };
  if (state.vendor !== call.vendor) return { kind: 'invalid', reason: 'other-vendor' };
  if (state.document !== call.document) return { kind: 'invalid', reason: 'other-document' };
  if (state.provider !== call.provider || state.assignmentId !== call.assignmentId) {
    return { kind: 'invalid', reason: 'other-request' };
  }
  if (state.status === 'issued') return { kind: 'reissue' };
  if (call.now >= state.expiresAt) return { kind: 'expired' };
  return { kind: 'complete' };
}
