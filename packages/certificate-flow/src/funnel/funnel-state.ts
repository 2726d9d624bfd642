import {
  type CertificateDocument,
  type CertificateVendor,
  formOf,
  type ProviderCode,
  type TwoWayInfo,
} from '@ferry/contracts';
import type { FunnelMessage } from '../i18n/catalogue.js';
import type { FunnelAlert } from './alerts.js';

/** The spec's client funnel. There is no error step: failures are alerts on one of these. */
export const FUNNEL_STEPS = ['intro', 'simpleVerification', 'confirm', 'done'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

/** What the person types on the intro step. `back` is plain only while they are on that step. */
export interface IntroInput {
  /** First 6 digits of the resident registration number (birthDate / rrn1), sent plain. */
  front: string;
  /** Last 7 digits, masked in the UI, encrypted and then wiped when the person leaves intro. */
  back: string;
  sido: string;
  sigg: string;
  fthrNm: string;
  mthrNm: string;
  sposNm: string;
  childNm: string;
}
export type IntroField = keyof IntroInput;
/** What is wrong with each field, as a catalogue message the client renders next to the field. */
export type IntroErrors = Partial<Record<IntroField, FunnelMessage>>;

/** The call in flight, if any. `id` lets the reducer ignore a late answer to an abandoned call. */
export interface PendingWork {
  kind: 'encrypt' | 'start' | 'complete';
  id: number;
}

/**
 * The client form state: the request fields (intro input, identityEnc, loginOrgCd, vendor,
 * assignmentId) plus the authentication state and the result (stepData, twoWayInfo, preSignedUrl).
 */
export interface FunnelState {
  step: FunnelStep;
  document: CertificateDocument;
  vendor: CertificateVendor;
  assignmentId: string | null;
  intro: IntroInput;
  /** Base64(IV ‖ ciphertext) of the back part; identityEnc or rrn2Enc on the wire. */
  identityEnc: string | null;
  loginOrgCd: ProviderCode | null;
  stepData: string | null;
  twoWayInfo: TwoWayInfo | null;
  preSignedUrl: string | null;
  fieldErrors: IntroErrors;
  pending: PendingWork | null;
  alert: FunnelAlert | null;
  /** Monotonic counter for PendingWork ids. */
  sequence: number;
}

export const EMPTY_INTRO: IntroInput = {
  front: '',
  back: '',
  sido: '',
  sigg: '',
  fthrNm: '',
  mthrNm: '',
  sposNm: '',
  childNm: '',
};

export interface FunnelEntry {
  /** From the assignment's certificateVendor; the certificate menu uses DEFAULT_CERTIFICATE_VENDOR. */
  vendor: CertificateVendor;
  assignmentId?: string | null;
  document?: CertificateDocument;
}

export function initialFunnelState(entry: FunnelEntry): FunnelState {
  return {
    step: 'intro',
    document: entry.document ?? 'resident-certificate',
    vendor: entry.vendor,
    assignmentId: entry.assignmentId ?? null,
    intro: EMPTY_INTRO,
    identityEnc: null,
    loginOrgCd: null,
    stepData: null,
    twoWayInfo: null,
    preSignedUrl: null,
    fieldErrors: {},
    pending: null,
    alert: null,
    sequence: 0,
  };
}

/** The residence documents' form asks for sido/sigg; the family-register documents' asks for names instead. */
export const needsAddress = (document: CertificateDocument): boolean => formOf(document) === 'resident';
