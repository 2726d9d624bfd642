import {
  BACK_DIGITS,
  digitEntry,
  type FunnelEvent,
  type FunnelState,
  messageText,
  providerLabelKey,
} from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { StepHeading } from '../components/StepHeading.js';
import { BackAgain } from './IntroStep.js';

interface StepProps {
  state: FunnelState;
  dispatch: (event: FunnelEvent) => void;
}

/**
 * The person approves in the provider app, then presses Complete, which sends the second call.
 * After a reload the back part is typed again here (it is never kept), and Complete encrypts it and
 * sends the call in one press.
 */
export function ConfirmStep({ state, dispatch }: StepProps) {
  const { t } = useCertificateTranslation();
  const busy = state.pending !== null;
  const provider = state.loginOrgCd ? t(providerLabelKey(state.loginOrgCd)) : t('confirm.anyProvider');
  const asksBack = state.backAgain === 'reloaded' && state.pending?.kind !== 'resume';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    dispatch({ type: 'completePressed' });
  };
  return (
    <section aria-labelledby="confirm-heading">
      <StepHeading id="confirm-heading">{t('confirm.heading', { provider })}</StepHeading>
      <ol className="instructions">
        <li>{t('confirm.open', { provider })}</li>
        <li>{t('confirm.approve')}</li>
        <li>{t('confirm.comeBack')}</li>
      </ol>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        {asksBack ? <BackAgainField state={state} dispatch={dispatch} /> : null}
        <div className="actions">
          <button type="submit" className="primary" aria-disabled={busy}>
            {t('confirm.complete')}
          </button>
          <button type="button" aria-disabled={busy} onClick={() => dispatch({ type: 'backPressed' })}>
            {t('confirm.chooseAnother')}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The back part, typed again after a reload, with why it is asked for and what is wrong with it. */
function BackAgainField({ state, dispatch }: StepProps) {
  const { t } = useCertificateTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [refused, setRefused] = useState(false);
  const error = state.fieldErrors.back;
  // A refused Complete puts the person where the fix is.
  useEffect(() => {
    if (error) input.current?.focus();
  }, [error]);
  const describedBy = ['back-again', refused ? 'back-digits-only' : undefined, error ? 'back-error' : undefined]
    .filter(Boolean)
    .join(' ');
  return (
    <fieldset>
      <legend>{t('intro.residentNumberLegend')}</legend>
      <BackAgain state={state} />
      <div className="field">
        <label htmlFor="rrn-back">{t('intro.back')}</label>
        <input
          ref={input}
          id="rrn-back"
          name="rrn-back"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          value={state.intro.back}
          aria-invalid={error !== undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            const entry = digitEntry(event.target.value, BACK_DIGITS);
            setRefused(entry.refused);
            dispatch({ type: 'fieldChanged', field: 'back', value: entry.value });
          }}
        />
      </div>
      {error ? (
        <p id="back-error" className="field-error">
          {messageText(t, error)}
        </p>
      ) : null}
      <div role="status" className="field-notes">
        {refused ? (
          <p id="back-digits-only" className="field-note">
            {t('validation.digitsOnly')}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}
