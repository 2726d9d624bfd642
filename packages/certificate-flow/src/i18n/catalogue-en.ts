import { PROVIDERS, type ProviderCode } from '@ferry/contracts';
import type { Catalogue } from './catalogue-shape.js';

/** The contracts' provider names are the English ones, so English keeps a single source for them. */
const PROVIDER_LABELS = Object.fromEntries(PROVIDERS.map((p) => [p.code, p.label])) as Record<ProviderCode, string>;

/** The funnel's English messages: the alternative to Korean, with exactly the same keys. */
export const EN: Catalogue = {
  service: {
    heading: 'Certificate request',
    title: 'Certificate request',
  },
  language: {
    label: 'Language',
    ko: '한국어',
    en: 'English',
  },
  steps: {
    intro: 'Your details',
    simpleVerification: 'Verification',
    confirm: 'Approve',
    done: 'Certificate',
  },
  progress: {
    label: 'Progress',
    position: 'Step {{current}} of {{total}}: ',
  },
  documents: {
    'resident-certificate': 'Resident registration copy',
    'resident-abstract': 'Resident registration abstract',
    'family-relations': 'Family relations certificate',
  },
  chosenDocument: 'Requested certificate: {{document}}',
  intro: {
    heading: 'Choose a certificate and enter your details',
    documentLegend: 'Which certificate do you need?',
    residentNumberLegend: 'Resident registration number',
    residentNumberHint:
      'The first 6 digits are your date of birth (for example 900101). The last 7 are not shown on screen and are sent encrypted.',
    front: 'First 6 digits',
    back: 'Last 7 digits',
    addressLegend: 'Registered address',
    sido: 'Province or city',
    sigg: 'District',
    sidoPlaceholder: 'Choose a province or city',
    siggPlaceholder: 'Choose a district',
    siggNeedsSido: 'Choose a province or city first',
    familyLegend: 'Family members (enter at least one name)',
    family: {
      fthrNm: "Father's name",
      mthrNm: "Mother's name",
      sposNm: "Spouse's name",
      childNm: "Child's name",
    },
    next: 'Choose how to verify',
  },
  validation: {
    front: {
      missing: 'Enter the first 6 digits of your resident registration number.',
      notADate: 'The first 6 digits are not a valid date of birth. For example, 1 January 1990 → 900101',
    },
    back: 'Enter all of the last 7 digits ({{count}} entered so far).',
    digitsOnly: 'Only digits can be entered here.',
    sido: 'Choose the province or city of your registered address.',
    sigg: 'Choose the district of your registered address.',
    nameTooLong: 'A name can have at most {{max}} characters.',
    familyRequired: "Enter at least one family member's name (father, mother, spouse or child).",
  },
  verification: {
    heading: 'Choose how to verify your identity',
    help: 'We will send an authentication request to the app you choose.',
    back: 'Edit your details',
    backHint: 'You will need to enter the last 7 digits again',
  },
  providers: PROVIDER_LABELS,
  providerKinds: {
    messenger: 'Messenger app',
    portal: 'Portal',
    payments: 'Payments app',
    'bank-certificate': 'Bank certificate',
  },
  confirm: {
    heading: 'Approve the request in {{provider}}',
    anyProvider: 'your provider',
    open: 'Tap the {{provider}} notification on your phone to open the authentication request.',
    approve: 'Approve the authentication request.',
    comeBack: 'Come back here and press Complete authentication.',
    complete: 'Complete authentication',
    chooseAnother: 'Choose another provider',
  },
  done: {
    heading: 'Your certificate is ready',
    issued: 'The file can be opened for {{minutes}} minutes only. Download and save it now.',
    issuedWithoutLimit: 'The file can be opened for a short time only. Download and save it now.',
    expiresAt: 'It can be opened until {{time}}.',
    linkExpired: 'The time to open the file has passed. If you need the certificate, request it again.',
    notLoaded: 'The issued file could not be loaded. Check your connection, then try again.',
    open: 'Open the PDF',
    opensInNewTab: ' (opens in a new tab)',
    share: 'Share the PDF',
    download: 'Download the PDF',
    restart: 'Request another certificate',
  },
  busy: {
    encrypt: 'Protecting your resident registration number…',
    start: 'Sending the authentication request to your provider…',
    complete: 'Checking your approval and issuing the certificate…',
    resume: 'Loading the request you had started…',
  },
  loading: 'Loading…',
  resume: {
    backAgain: 'They were cleared when the page reloaded: for your safety they are never stored.',
  },
  entry: {
    backToList: 'Back to the list',
    back: 'Go back',
    retry: 'Try again',
  },
  dialog: {
    ok: 'OK',
    close: 'Close',
  },
  alerts: {
    invalidInput: {
      title: 'Please check your details',
      message:
        'Your resident registration number or address may not match the issuing authority’s records. Correct what you entered, then request again.',
    },
    notApprovedYet: {
      title: 'Not approved yet',
      message: 'Approve the request in the provider app, then press Complete authentication again.',
    },
    authenticationExpired: {
      title: 'Authentication expired',
      message:
        'An authentication request must be approved within {{minutes}} minutes. Choose your provider again to send a new request.',
      messageWithoutLimit: 'The authentication request has expired. Choose your provider again to send a new request.',
    },
    unsupportedProvider: {
      title: 'Provider not available',
      message: 'This provider cannot be used for this certificate. Choose another provider.',
    },
    vendorMismatch: {
      title: 'The request details do not match',
      message: 'Open the request again from your list. If it still does not work, contact customer support.',
    },
    rejected: {
      title: 'The certificate could not be issued',
      message:
        'The authentication was cancelled or could not be confirmed. Choose your provider again. If your details were wrong, press Edit your details.',
    },
    signedOut: {
      title: 'Please sign in again',
      message: 'Your session has ended. Sign in again, then request the certificate.',
    },
    notCertified: {
      title: 'Identity confirmation needed',
      message:
        'Only members who have confirmed their identity can request certificates. Confirm your identity, then request again.',
      messageWithMenu:
        'Only members who have confirmed their identity can request certificates. Confirm your identity in {{menu}}, then request again.',
    },
    assignmentNotFound: {
      title: 'Request not found',
      message: 'It may have been completed or cancelled already. Refresh your list, then open it again.',
    },
    tooManyRequests: {
      title: 'Please try again shortly',
      message: 'You made several requests in a short time. Try again in a minute.',
    },
    unavailable: {
      title: 'Service unavailable',
      message: 'The certificate service is not responding right now. Please try again in a moment.',
    },
    encryptionUnavailable: {
      title: 'Secure entry unavailable',
      message:
        'Your resident registration number cannot be sent securely from this device, so it was not sent. Update the app to the latest version, then try again.',
    },
    unexpected: {
      title: 'Something went wrong',
      message: 'A temporary error stopped the certificate from being issued. Try again in a moment.',
    },
    network: {
      title: 'Check your internet connection',
      message:
        'The connection was lost, so the request was not sent. Check your connection, then press the button again.',
    },
  },
};
