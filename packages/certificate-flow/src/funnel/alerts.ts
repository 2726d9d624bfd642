import type { CatalogueKey } from '../i18n/catalogue.js';

/**
 * Every failure the person can meet, as one clear sentence (the catalogue's `alerts`). Web and native show the same text, so
 * support can answer "what did the screen say" for both.
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
  'encryptionUnavailable',
  'unexpected',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** An alert's words are catalogue keys; each client renders them in the person's language. */
export interface FunnelAlert {
  kind: AlertKind;
  title: CatalogueKey;
  message: CatalogueKey;
}

export const alertOf = (kind: AlertKind): FunnelAlert => ({
  kind,
  title: `alerts.${kind}.title`,
  message: `alerts.${kind}.message`,
});
