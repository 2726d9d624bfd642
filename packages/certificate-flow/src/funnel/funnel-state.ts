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

/**
 * The call in flight, if any. `id` lets the reducer ignore a late answer to an abandoned call.
 * `resume` reads a started authentication again after a reload (the server's state is the truth).
 */
export interface PendingWork {
  kind: 'encrypt' | 'start' | 'complete' | 'resume';
  id: number;
}

/**
 * Why the back part is asked for again, so the page can say so: the page was reloaded (it is never
 * kept), or the person went back to their details from the provider choice.
 */
export type BackAgain = 'reloaded' | 'returned';

/** The issued document's link: until when it opens, by this device's clock (epoch ms). */
export interface CertificateLink {
  expiresAt: number;
  /** Whole minutes it was valid for when it was received. */
  minutes: number;
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
  /** The server's id of the started authentication (the ferry-authentication-id header): kept to resume. */
  authenticationId: string | null;
  /**
   * When the document's link stops opening; null when the server did not say. On done without a
   * URL: its time has passed (expiresAt 0), or null when it could not be read (resumeRetried).
   */
  certificateLink: CertificateLink | null;
  /** The vendor's approval window, once the server said it (resume, or an expiry's details). */
  approvalWindowSeconds: number | null;
  /** Set while the back part must be typed again (on intro, or on confirm after a reload). */
  backAgain: BackAgain | null;
  /** The host app's menu where members confirm their identity, named in the notCertified alert. */
  certificationMenu: string | null;
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
  /** The host app's menu where members confirm their identity (e.g. "내 정보 > 본인인증"); see alertOf. */
  certificationMenu?: string | null;
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
    authenticationId: null,
    certificateLink: null,
    approvalWindowSeconds: null,
    backAgain: null,
    certificationMenu: entry.certificationMenu?.trim() || null,
    fieldErrors: {},
    pending: null,
    alert: null,
    sequence: 0,
  };
}

/** The residence documents' form asks for sido/sigg; the family-register documents' asks for names instead. */
export const needsAddress = (document: CertificateDocument): boolean => formOf(document) === 'resident';
