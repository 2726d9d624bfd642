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
    const { status, code, details } = error as { status: unknown; code: unknown; details?: unknown };
    if (typeof status === 'number' && typeof code === 'string') {
      return details && typeof details === 'object'
        ? { status, code, details: details as CallFailure['details'] }
        : { status, code };
    }
  }
  return { status: -1, code: 'CLIENT_ERROR' };
};

/**
 * What is left of an issued document's link, read from the server after the second call (its answer
 * carries only the URL). Not being able to read it never fails the issuance: the link is shown without its end.
 */
async function linkAfterIssuance(deps: FunnelDependencies, authenticationId: string | null | undefined) {
  if (!authenticationId) return null;
  try {
    const authentication = await deps.api.getAuthentication(authenticationId);
    const link = authentication.certificate;
    return link ? { remainingSeconds: link.remainingSeconds, receivedAt: Date.now() } : null;
  } catch {
    return null;
  }
}

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
        return {
          type: 'authenticationStarted',
          id,
          stepData: response.stepData,
          twoWayInfo: response.twoWayInfo,
          authenticationId: response.authenticationId ?? null,
        };
      }
      case 'complete': {
        const response = await deps.api.requestCertificate(certificateRequest(state, 'second'));
        if (!response.preSignedUrl) {
          // Issued without a document would strand the person on done; treat it as a failed issuance.
          return { type: 'workFailed', id, failure: { status: 502, code: 'INVALID_RESPONSE' } };
        }
        const link = await linkAfterIssuance(deps, response.authenticationId ?? state.authenticationId);
        return { type: 'certificateIssued', id, preSignedUrl: response.preSignedUrl, link };
      }
      case 'resume': {
        if (!state.authenticationId) {
          return { type: 'workFailed', id, failure: { status: 404, code: 'AUTHENTICATION_NOT_FOUND' } };
        }
        const authentication = await deps.api.getAuthentication(state.authenticationId);
        return { type: 'authenticationRead', id, authentication, receivedAt: Date.now() };
      }
    }
  } catch (error) {
    return { type: 'workFailed', id, failure: asFailure(error) };
  }
}
