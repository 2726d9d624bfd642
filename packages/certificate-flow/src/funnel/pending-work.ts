import { secondCallField } from '@ferry/contracts';
import type { CertificateApi } from '../api/certificate-api.js';
import type { IdentityCipher } from '../encryption/identity-cipher.js';
import { certificateRequest } from './certificate-request.js';
import type { CallFailure } from './failure-outcome.js';
import type { WorkEvent } from './funnel-events.js';
import type { FunnelState } from './funnel-state.js';

export interface FunnelDependencies {
  cipher: IdentityCipher;
  api: CertificateApi;
}

const asFailure = (error: unknown): CallFailure => {
  if (error && typeof error === 'object' && 'status' in error && 'code' in error) {
    const { status, code } = error as { status: unknown; code: unknown };
    if (typeof status === 'number' && typeof code === 'string') return { status, code };
  }
  return { status: -1, code: 'CLIENT_ERROR' };
};

/**
 * Performs the work the reducer asked for (state.pending) and answers with the event to dispatch.
 * Never throws: every failure becomes a workFailed event, which the reducer turns into an alert.
 * Returns null when nothing is pending. Web and native call this from their own effect hooks.
 */
export async function performPendingWork(state: FunnelState, deps: FunnelDependencies): Promise<WorkEvent | null> {
  const pending = state.pending;
  if (!pending) return null;
  const { id } = pending;
  try {
    switch (pending.kind) {
      case 'encrypt':
        return { type: 'identityEncrypted', id, identityEnc: await deps.cipher.encrypt(state.intro.back) };
      case 'start': {
        const response = await deps.api.requestCertificate(certificateRequest(state, 'first'));
        // The vendor's state comes back in its second-call field, which the second call repeats.
        const hasState = response[secondCallField(state.vendor)] !== null;
        if (!hasState) return { type: 'workFailed', id, failure: { status: 502, code: 'INVALID_RESPONSE' } };
        return { type: 'authenticationStarted', id, stepData: response.stepData, twoWayInfo: response.twoWayInfo };
      }
      case 'complete': {
        const response = await deps.api.requestCertificate(certificateRequest(state, 'second'));
        if (!response.preSignedUrl) {
          // Issued without a document would strand the person on done; treat it as a failed issuance.
          return { type: 'workFailed', id, failure: { status: 502, code: 'INVALID_RESPONSE' } };
        }
        return { type: 'certificateIssued', id, preSignedUrl: response.preSignedUrl };
      }
    }
  } catch (error) {
    return { type: 'workFailed', id, failure: asFailure(error) };
  }
}
