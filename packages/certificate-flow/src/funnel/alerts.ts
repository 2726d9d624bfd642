import type { CatalogueKey, MessageValues } from '../i18n/catalogue.js';

/**
 * Every failure the person can meet, as one clear sentence and what to do next (the catalogue's
 * `alerts`). Web and native show the same text, so support can answer "what did the screen say" for both.
 */
export const ALERT_KINDS = [
  'invalidInput',
  'notApprovedYet',
  'authenticationExpired',
  'unsupportedProvider',
  'vendorMismatch',
  'rejected',
  'signedOut',
  'notCertified',
  'assignmentNotFound',
  'tooManyRequests',
  'unavailable',
  'network',
  'encryptionUnavailable',
  'unexpected',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** An alert's words are catalogue keys (with their values); each client renders them in the person's language. */
export interface FunnelAlert {
  kind: AlertKind;
  title: CatalogueKey;
  message: CatalogueKey;
  values?: MessageValues;
}

/** What an alert may name besides its fixed words. */
export interface AlertContext {
  /** The vendor's approval window, when the server said it (authenticationExpired names it in minutes). */
  approvalWindowSeconds?: number | null;
  /** The host app's menu where a member confirms their identity (notCertified names it), e.g. "내 정보 > 본인인증". */
  certificationMenu?: string | null;
}

/**
 * The alert of a kind, with the words that depend on what is known: the approval window in whole
 * minutes when the server said it (rounded down, so the person is never told they have longer than
 * they do; at least 1), the host's menu when the host named one;
 * otherwise the sentence that needs neither.
 */
export function alertOf(kind: AlertKind, context: AlertContext = {}): FunnelAlert {
  const base = { kind, title: `alerts.${kind}.title`, message: `alerts.${kind}.message` } as const;
  const { approvalWindowSeconds, certificationMenu } = context;
  if (kind === 'authenticationExpired') {
    if (!approvalWindowSeconds || approvalWindowSeconds <= 0) {
      return { ...base, message: 'alerts.authenticationExpired.messageWithoutLimit' };
    }
    return { ...base, values: { minutes: Math.max(1, Math.floor(approvalWindowSeconds / 60)) } };
  }
  if (kind === 'notCertified' && certificationMenu?.trim()) {
    return { ...base, message: 'alerts.notCertified.messageWithMenu', values: { menu: certificationMenu.trim() } };
  }
  return base;
}
