/**
 * Every failure the person can meet, as one clear sentence. Web and native show the same text, so
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

export interface FunnelAlert {
  kind: AlertKind;
  title: string;
  message: string;
}

const TEXT: Record<AlertKind, { title: string; message: string }> = {
  invalidInput: {
    title: 'Please check your details',
    message: 'Some of the details you entered are not valid. Correct the marked fields and try again.',
  },
  notApprovedYet: {
    title: 'Not approved yet',
    message: 'We have not received your approval yet. Approve the request in the provider app, then press Complete.',
  },
  authenticationExpired: {
    title: 'Authentication expired',
    message: 'The authentication request has expired. Choose your provider again to send a new request.',
  },
  unsupportedProvider: {
    title: 'Provider not available',
    message: 'This provider cannot be used for this certificate. Choose another provider.',
  },
  vendorMismatch: {
    title: 'This request cannot be used',
    message: 'This certificate request does not match its assignment. Open the assignment again from your list.',
  },
  rejected: {
    title: 'The certificate was not issued',
    message:
      'The issuing service could not confirm your identity or your details, or the request was cancelled. Check your details and try again.',
  },
  signedOut: {
    title: 'Please sign in again',
    message: 'Your session has ended. Sign in again, then request the certificate.',
  },
  notCertified: {
    title: 'Identity confirmation needed',
    message: 'Only members who have confirmed their identity can request certificates.',
  },
  assignmentNotFound: {
    title: 'Assignment not found',
    message: 'We could not find this assignment. Open it again from your list.',
  },
  tooManyRequests: {
    title: 'Too many attempts',
    message: 'You have made too many requests in a short time. Wait a minute, then try again.',
  },
  unavailable: {
    title: 'Service unavailable',
    message: 'The certificate service is not responding right now. Please try again in a moment.',
  },
  encryptionUnavailable: {
    title: 'Secure entry unavailable',
    message: 'Your resident registration number could not be protected on this device, so it was not sent.',
  },
  unexpected: {
    title: 'Something went wrong',
    message: 'Something went wrong on our side. Nothing was issued; please try again.',
  },
};

export const alertOf = (kind: AlertKind): FunnelAlert => ({ kind, ...TEXT[kind] });
