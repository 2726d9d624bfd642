import { alertOf } from './alerts.js';
import { failureOutcome } from './failure-outcome.js';
import type { FunnelEvent, WorkEvent } from './funnel-events.js';
import { EMPTY_INTRO, type FunnelState, type PendingWork } from './funnel-state.js';
import { isIntroValid, validateIntro } from './intro-validation.js';

const begin = (state: FunnelState, kind: PendingWork['kind']): FunnelState => ({
  ...state,
  pending: { kind, id: state.sequence + 1 },
  sequence: state.sequence + 1,
  alert: null,
});

const withoutAuthentication = (state: FunnelState): FunnelState => ({
  ...state,
  stepData: null,
  twoWayInfo: null,
  preSignedUrl: null,
});

/** A work answer counts only if it answers the work still pending; anything else is stale. */
const answersPending = (state: FunnelState, event: WorkEvent): boolean => state.pending?.id === event.id;

/**
 * The funnel as a pure function: intro → simpleVerification → confirm → done. Work (encryption and
 * the two calls) is requested by setting `pending`; the client performs it (see performPendingWork)
 * and feeds the answer back as an event. While work is pending, the person's other actions are ignored,
 * so a double press never sends a call twice.
 */
export function funnelReducer(state: FunnelState, event: FunnelEvent): FunnelState {
  switch (event.type) {
    case 'alertDismissed':
      return { ...state, alert: null };

    case 'documentChosen':
      if (state.step !== 'intro' || state.pending) return state;
      return { ...state, document: event.document, fieldErrors: {} };

    case 'fieldChanged': {
      if (state.step !== 'intro' || state.pending) return state;
      const { [event.field]: _cleared, ...fieldErrors } = state.fieldErrors;
      const intro = { ...state.intro, [event.field]: event.value };
      // A district belongs to its province: changing the province clears the district.
      if (event.field === 'sido' && event.value !== state.intro.sido) intro.sigg = '';
      return { ...state, intro, fieldErrors };
    }

    case 'introSubmitted': {
      if (state.step !== 'intro' || state.pending) return state;
      const fieldErrors = validateIntro(state.document, state.intro);
      // Shown once, next to the fields: no alert on top of the inline errors.
      if (!isIntroValid(fieldErrors)) return { ...state, fieldErrors, alert: null };
      return begin({ ...state, fieldErrors: {} }, 'encrypt');
    }

    case 'identityEncrypted':
      if (!answersPending(state, event)) return state;
      // The plain back part is wiped here: from now on only its ciphertext exists.
      return {
        ...withoutAuthentication(state),
        step: 'simpleVerification',
        intro: { ...state.intro, back: '' },
        identityEnc: event.identityEnc,
        loginOrgCd: null,
        pending: null,
      };

    case 'providerChosen':
      if (state.step !== 'simpleVerification' || state.pending || !state.identityEnc) return state;
      return begin({ ...withoutAuthentication(state), loginOrgCd: event.provider }, 'start');

    case 'authenticationStarted':
      if (!answersPending(state, event)) return state;
      return { ...state, step: 'confirm', stepData: event.stepData, twoWayInfo: event.twoWayInfo, pending: null };

    case 'completePressed':
      if (state.step !== 'confirm' || state.pending) return state;
      return begin(state, 'complete');

    case 'certificateIssued':
      if (!answersPending(state, event)) return state;
      return {
        ...state,
        step: 'done',
        stepData: null,
        twoWayInfo: null,
        preSignedUrl: event.preSignedUrl,
        pending: null,
      };

    case 'workFailed': {
      if (!answersPending(state, event) || !state.pending) return state;
      const outcome = failureOutcome(state.pending.kind, event.failure);
      let next: FunnelState = { ...state, step: outcome.step, pending: null, alert: alertOf(outcome.alert) };
      if (outcome.dropAuthentication) next = withoutAuthentication(next);
      // Back on intro the back part must be typed again: its plain form was wiped on leaving.
      if (outcome.step === 'intro') next = { ...next, identityEnc: null, loginOrgCd: null };
      return next;
    }

    case 'backPressed':
      if (state.pending) return state;
      if (state.step === 'simpleVerification') {
        return { ...state, step: 'intro', identityEnc: null, loginOrgCd: null, alert: null };
      }
      if (state.step === 'confirm') {
        return { ...withoutAuthentication(state), step: 'simpleVerification', loginOrgCd: null, alert: null };
      }
      return state;

    case 'restarted':
      return {
        ...withoutAuthentication(state),
        step: 'intro',
        intro: EMPTY_INTRO,
        identityEnc: null,
        loginOrgCd: null,
        fieldErrors: {},
        pending: null,
        alert: null,
      };
  }
}
