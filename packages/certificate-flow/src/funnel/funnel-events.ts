import type { CertificateAuthentication, CertificateDocument, ProviderCode, TwoWayInfo } from '@ferry/contracts';
import type { CallFailure } from './failure-outcome.js';
import type { IntroField } from './funnel-state.js';

/** What the person does. */
export type UserEvent =
  | { type: 'documentChosen'; document: CertificateDocument }
  | { type: 'fieldChanged'; field: IntroField; value: string }
  | { type: 'introSubmitted' }
  | { type: 'providerChosen'; provider: ProviderCode }
  | { type: 'completePressed' }
  | { type: 'backPressed' }
  | { type: 'alertDismissed' }
  | { type: 'restarted' }
  /** Read the authentication again (after a resume that could not read it). */
  | { type: 'resumeRetried' };

/** The link of an issued document as the server said it: what was left of it, and when that was received. */
export interface LinkReading {
  remainingSeconds: number;
  /** This device's clock when the answer arrived (epoch ms). */
  receivedAt: number;
}

/** What a finished piece of work reports; `id` is the PendingWork it answers. */
export type WorkEvent =
  | { type: 'identityEncrypted'; id: number; identityEnc: string }
  | {
      type: 'authenticationStarted';
      id: number;
      stepData: string | null;
      twoWayInfo: TwoWayInfo | null;
      /** The server's id of it, when it named one (the ferry-authentication-id header). */
      authenticationId?: string | null;
    }
  | { type: 'certificateIssued'; id: number; preSignedUrl: string; link?: LinkReading | null }
  | { type: 'authenticationRead'; id: number; authentication: CertificateAuthentication; receivedAt: number }
  | { type: 'workFailed'; id: number; failure: CallFailure };

export type FunnelEvent = UserEvent | WorkEvent;
