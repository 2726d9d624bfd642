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
  chosenDocument: 'Certificate: {{document}}',
  intro: {
    heading: 'Choose a certificate and enter your details',
    documentLegend: 'Which certificate do you need?',
    residentNumberLegend: 'Resident registration number',
    residentNumberHint: 'The first 6 digits are your date of birth (YYMMDD). The last 7 are hidden and sent encrypted.',
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
    next: 'Next',
  },
  validation: {
    front: 'Enter the first 6 digits of your resident registration number (your birth date, YYMMDD).',
    back: 'Enter the last 7 digits of your resident registration number.',
    sido: 'Choose the province or city of your registered address.',
    sigg: 'Choose the district of your registered address.',
    nameTooLong: 'A name can have at most {{max}} characters.',
    familyRequired: "Enter at least one family member's name (father, mother, spouse or child).",
  },
  verification: {
    heading: 'Choose how to verify your identity',
    help: 'We will send an authentication request to the app you choose.',
    back: 'Back to your details',
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
    open: 'Open {{provider}} on your phone.',
    approve: 'Approve the authentication request.',
    comeBack: 'Come back here and press Complete.',
    complete: 'Complete',
    chooseAnother: 'Choose another provider',
  },
  done: {
    heading: 'Your certificate is ready',
    issued: 'The link works for a limited time, so save the file now.',
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
  },
  loading: 'Loading…',
  dialog: {
    ok: 'OK',
    close: 'Close',
  },
  alerts: {
    invalidInput: {
      title: 'Please check your details',
      message: 'Some of the details you entered are not valid. Check them and try again.',
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
  },
};
