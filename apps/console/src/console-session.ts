import { ConsoleSession } from '@ferry/contracts';
import { ApiError, getJson } from './api.js';

const SESSION_PATH = '/api/console/session';

/**
 * The session as seen in `wanted`, or, when the operator may not see that app (403 APP_FORBIDDEN: a
 * remembered app since archived, or a grant since changed), in the app the server picks for them:
 * the console then opens on that app instead of an error screen. Any other failure is the caller's.
 */
export async function sessionInApp(
  wanted: string | undefined,
  read: (app: string | null) => Promise<ConsoleSession>,
): Promise<ConsoleSession> {
  if (wanted === undefined) return read(null);
  try {
    return await read(wanted);
  } catch (reason) {
    if (reason instanceof ApiError && reason.status === 403 && reason.code === 'APP_FORBIDDEN') return read(null);
    throw reason;
  }
}

/** GET /api/console/session in `wanted` (else the server's pick for the operator). */
export const readSession = (wanted: string | undefined): Promise<ConsoleSession> =>
  sessionInApp(wanted, (app) => getJson(SESSION_PATH, ConsoleSession, { app }));

/**
 * After signing in (which names no app: the operator was unknown until then), the app remembered
 * from an earlier visit when this operator may see it; else the app the sign-in answered with.
 */
export async function sessionAfterSignIn(
  signedIn: ConsoleSession,
  remembered: string | undefined,
): Promise<ConsoleSession> {
  if (remembered === undefined || remembered === signedIn.app) return signedIn;
  if (!signedIn.apps.some((app) => app.slug === remembered)) return signedIn;
  return readSession(remembered).catch(() => signedIn);
}
