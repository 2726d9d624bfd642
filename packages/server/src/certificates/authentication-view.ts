import type { AuthenticationStatus } from '@ferry/contracts';
import type { AuthenticationState } from './authentication-state-store.js';
import type { Issuance } from './issuance-store.js';

/** Where an authentication stands for its owner, and what its document's link may still be. */
export interface AuthenticationView {
  status: AuthenticationStatus;
  /** Only when issued: when its link stops working, and how many seconds a link signed now may live (0: none). */
  link: { expiresAt: number; remainingSeconds: number } | null;
}

/**
 * How an authentication reads when its owner asks again (a client resuming after a reload). An
 * issuance makes it `issued`; its link lasts until the issuance plus the URL lifetime, never longer
 * however often it is read, and not at all once retention removed the PDF. Without one it is
 * `pending` until its approval window ends, or while a second call still holds its lease (that
 * call may still issue), and `expired` after.
 */
export function authenticationView(
  state: Pick<AuthenticationState, 'status' | 'expiresAt' | 'leaseUntil'>,
  issuance: Pick<Issuance, 'createdAt' | 'expiresAt' | 'deletedAt'> | undefined,
  context: { now: number; urlTtlSeconds: number },
): AuthenticationView {
  const { now } = context;
  if (issuance) {
    const expiresAt = issuance.createdAt + context.urlTtlSeconds * 1000;
    const kept = issuance.deletedAt === null && issuance.expiresAt > now;
    const remainingSeconds = kept ? Math.max(0, Math.floor((expiresAt - now) / 1000)) : 0;
    return { status: 'issued', link: { expiresAt, remainingSeconds } };
  }
  const leaseHeld = state.status === 'completing' && (state.leaseUntil ?? 0) > now;
  if (state.status !== 'issued' && (now < state.expiresAt || leaseHeld)) return { status: 'pending', link: null };
  return { status: 'expired', link: null };
}
