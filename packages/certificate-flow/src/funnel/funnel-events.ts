import type { CertificateDocument, ProviderCode, TwoWayInfo } from '@ferry/contracts';
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
  | { type: 'restarted' };

/** What a finished piece of work reports; `id` is the PendingWork it answers. */
export type WorkEvent =
  | { type: 'identityEncrypted'; id: number; identityEnc: string }
  | { type: 'authenticationStarted'; id: number; stepData: string | null; twoWayInfo: TwoWayInfo | null }
  | { type: 'certificateIssued'; id: number; preSignedUrl: string }
  | { type: 'workFailed'; id: number; failure: CallFailure };

export type FunnelEvent = UserEvent | WorkEvent;
