import type { CertificateAuthentication } from '@ferry/contracts';
import { isResidentNumberBack } from '../identity/resident-number.js';
import { type AlertKind, alertOf, type FunnelAlert } from './alerts.js';
import { failureOutcome } from './failure-outcome.js';
import type { FunnelEvent, LinkReading, WorkEvent } from './funnel-events.js';
import { type CertificateLink, EMPTY_INTRO, type FunnelState, type PendingWork } from './funnel-state.js';
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
  authenticationId: null,
  certificateLink: null,
});

/** Back on intro: the back part must be typed again (its plain form was wiped on leaving), and it is said why. */
const backToIntro = (state: FunnelState, why: FunnelState['backAgain']): FunnelState => ({
  ...withoutAuthentication(state),
  step: 'intro',
  intro: { ...state.intro, back: '' },
  identityEnc: null,
  loginOrgCd: null,
  backAgain: why,
});

/** An alert of this state's funnel: with the approval window it knows and the host's menu. */
const alertIn = (state: FunnelState, kind: AlertKind, approvalWindowSeconds?: unknown): FunnelAlert =>
  alertOf(kind, {
    approvalWindowSeconds:
      typeof approvalWindowSeconds === 'number' ? approvalWindowSeconds : state.approvalWindowSeconds,
    certificationMenu: state.certificationMenu,
  });

/**
 * The link's end by this device's clock, from what was left of it when the server answered, and
 * that in whole minutes (to the nearest: a fresh link of 600 s reads 599 s by then, which is its
 * 10 minutes; the page shows the exact time beside it).
 */
const linkOf = (reading: LinkReading | null): CertificateLink | null =>
  reading && {
    expiresAt: reading.receivedAt + reading.remainingSeconds * 1000,
    minutes: Math.round(reading.remainingSeconds / 60),
  };

/** A link whose time has passed: the page says so instead of offering it. */
const LINK_PASSED: CertificateLink = { expiresAt: 0, minutes: 0 };

/** A resumed authentication, as the server says it stands now. */
function resumedFrom(state: FunnelState, authentication: CertificateAuthentication, receivedAt: number): FunnelState {
  const known = { ...state, pending: null, approvalWindowSeconds: authentication.approvalWindowSeconds };
  if (authentication.status === 'issued') {
    const link = authentication.certificate;
    const url = link?.preSignedUrl ?? null;
    return {
      ...known,
      step: 'done',
      stepData: null,
      twoWayInfo: null,
      intro: EMPTY_INTRO,
      preSignedUrl: url,
      // No URL any more: the link's time has passed (or the PDF is gone), which the page says.
      certificateLink: url && link ? linkOf({ remainingSeconds: link.remainingSeconds, receivedAt }) : LINK_PASSED,
    };
  }
  if (state.step === 'done') return { ...known, preSignedUrl: null, certificateLink: LINK_PASSED };
  if (authentication.status === 'expired') {
    return { ...backToIntro(known, 'reloaded'), alert: alertIn(known, 'authenticationExpired') };
  }
  // Pending: the second call can still complete it, once the back part is typed again.
  return { ...known, step: 'confirm', backAgain: 'reloaded' };
}

/** A resume whose read failed: confirm asks for the back part (the second call's answer then tells), done says it. */
function resumeFailed(state: FunnelState, event: Extract<WorkEvent, { type: 'workFailed' }>): FunnelState {
  const settled = { ...state, pending: null };
  if (event.failure.code === 'AUTHENTICATION_NOT_FOUND') {
    return state.step === 'done'
      ? { ...settled, preSignedUrl: null, certificateLink: LINK_PASSED }
      : { ...backToIntro(settled, 'reloaded'), alert: alertIn(settled, 'authenticationExpired') };
  }
  if (state.step === 'done') {
    return { ...settled, alert: alertIn(settled, event.failure.status === 0 ? 'network' : 'unavailable') };
  }
  return { ...settled, backAgain: 'reloaded' };
}

/** A work answer counts only if it answers the work still pending; anything else is stale. */
const answersPending = (state: FunnelState, event: WorkEvent): boolean => state.pending?.id === event.id;

/**
 * The funnel as a pure function: intro → simpleVerification → confirm → done. Work (encryption, the
 * two calls, reading a started authentication again) is requested by setting `pending`; the client
 * performs it (see performPendingWork) and feeds the answer back as an event. While work is pending,
 * the person's other actions are ignored, so a double press never sends a call twice.
 */
export function funnelReducer(state: FunnelState, event: FunnelEvent): FunnelState {
  switch (event.type) {
    case 'alertDismissed':
      return { ...state, alert: null };

    case 'documentChosen':
      if (state.step !== 'intro' || state.pending) return state;
      return { ...state, document: event.document, fieldErrors: {} };

    case 'fieldChanged': {
      // On confirm after a reload the back part is typed again there; no other field after intro.
      const backOnConfirm = state.step === 'confirm' && state.backAgain === 'reloaded' && event.field === 'back';
      if ((state.step !== 'intro' && !backOnConfirm) || state.pending) return state;
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

    case 'identityEncrypted': {
      if (!answersPending(state, event)) return state;
      // The plain back part is wiped here: from now on only its ciphertext exists.
      const intro = { ...state.intro, back: '' };
      if (state.step === 'confirm') {
        // Typed again after a reload: the second call goes out with it at once.
        return begin({ ...state, intro, identityEnc: event.identityEnc, backAgain: null }, 'complete');
      }
      return {
        ...withoutAuthentication(state),
        step: 'simpleVerification',
        intro,
        identityEnc: event.identityEnc,
        loginOrgCd: null,
        backAgain: null,
        pending: null,
      };
    }

    case 'providerChosen':
      if (state.step !== 'simpleVerification' || state.pending || !state.identityEnc) return state;
      return begin({ ...withoutAuthentication(state), loginOrgCd: event.provider }, 'start');

    case 'authenticationStarted':
      if (!answersPending(state, event)) return state;
      return {
        ...state,
        step: 'confirm',
        stepData: event.stepData,
        twoWayInfo: event.twoWayInfo,
        authenticationId: event.authenticationId ?? null,
        pending: null,
      };

    case 'completePressed':
      if (state.step !== 'confirm' || state.pending) return state;
      // Resumed after a reload, without the encrypted back part: first the one typed here.
      if (!state.identityEnc) {
        if (!isResidentNumberBack(state.intro.back)) {
          const back = { key: 'validation.back', values: { count: state.intro.back.length } } as const;
          return { ...state, fieldErrors: { back }, alert: null };
        }
        return begin({ ...state, fieldErrors: {} }, 'encrypt');
      }
      return begin(state, 'complete');

    case 'certificateIssued':
      if (!answersPending(state, event)) return state;
      return {
        ...state,
        step: 'done',
        stepData: null,
        twoWayInfo: null,
        // The details are not needed any more; only the document and its link stay.
        intro: EMPTY_INTRO,
        identityEnc: null,
        preSignedUrl: event.preSignedUrl,
        certificateLink: linkOf(event.link ?? null),
        pending: null,
      };

    case 'authenticationRead':
      if (!answersPending(state, event)) return state;
      return resumedFrom(state, event.authentication, event.receivedAt);

    case 'workFailed': {
      if (!answersPending(state, event) || !state.pending) return state;
      if (state.pending.kind === 'resume') return resumeFailed(state, event);
      const outcome = failureOutcome(state.pending.kind, event.failure, state.step);
      let next: FunnelState = {
        ...state,
        step: outcome.step,
        pending: null,
        alert: alertIn(state, outcome.alert, event.failure.details?.approvalWindowSeconds),
      };
      if (typeof event.failure.details?.approvalWindowSeconds === 'number') {
        next.approvalWindowSeconds = event.failure.details.approvalWindowSeconds;
      }
      if (outcome.dropAuthentication) next = withoutAuthentication(next);
      if (outcome.step === 'intro') next = backToIntro(next, 'returned');
      return next;
    }

    case 'backPressed':
      if (state.pending) return state;
      if (state.step === 'simpleVerification') return { ...backToIntro(state, 'returned'), alert: null };
      if (state.step === 'confirm') {
        // Without the encrypted back part (typed again after a reload) the provider choice could not
        // start anything: the details, where it is typed.
        if (!state.identityEnc) return { ...backToIntro(state, 'reloaded'), alert: null };
        return { ...withoutAuthentication(state), step: 'simpleVerification', loginOrgCd: null, alert: null };
      }
      // Back from a finished request starts a new one, as "request another certificate" does.
      if (state.step === 'done') return funnelReducer(state, { type: 'restarted' });
      return state;

    case 'resumeRetried':
      if (state.step !== 'done' || state.pending || !state.authenticationId || state.preSignedUrl) return state;
      return begin(state, 'resume');

    case 'restarted':
      return {
        ...withoutAuthentication(state),
        step: 'intro',
        intro: EMPTY_INTRO,
        identityEnc: null,
        loginOrgCd: null,
        backAgain: null,
        fieldErrors: {},
        pending: null,
        alert: null,
      };
  }
}
