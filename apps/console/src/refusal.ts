import { ApiError } from './api.js';
import type { Translate } from './i18n/catalogue.js';

/**
 * What a failed request says on screen: the server's own message (it names the reason in words),
 * with its code; the status in the console's words when the server sent no message.
 */
export function refusalOf(t: Translate, reason: unknown): { message: string; code?: string } {
  if (reason instanceof ApiError) {
    return { message: reason.message || t('errors.httpStatus', { status: reason.status }), code: reason.code };
  }
  return { message: reason instanceof Error ? reason.message : String(reason) };
}

/** The same, as one line (a page that could not load). */
export const refusalLine = (t: Translate, reason: unknown): string => refusalOf(t, reason).message;
