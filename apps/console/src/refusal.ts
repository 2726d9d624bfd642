import { PLATFORMS, type Platform } from '@ferry/contracts';
import { ApiError } from './api.js';
import type { Translate } from './i18n/catalogue.js';

/** A refusal as the console shows it; `platform`: the platform of a release group that refused. */
export interface RefusalView {
  message: string;
  code?: string;
  platform?: Platform;
}

const isPlatform = (value: unknown): value is Platform => PLATFORMS.includes(value as Platform);

/**
 * What a failed request says on screen: the server's own message (it names the reason in words),
 * with its code; the status in the console's words when the server sent no message. A group
 * action's refusal also names the platform that refused (`details.platform`).
 */
export function refusalOf(t: Translate, reason: unknown): RefusalView {
  if (reason instanceof ApiError) {
    const platform = reason.details.platform;
    return {
      message: reason.message || t('errors.httpStatus', { status: reason.status }),
      code: reason.code,
      ...(isPlatform(platform) ? { platform } : {}),
    };
  }
  return { message: reason instanceof Error ? reason.message : String(reason) };
}

/** The same, as one line (a page that could not load). */
export const refusalLine = (t: Translate, reason: unknown): string => refusalOf(t, reason).message;
