import {
  BACK_DIGITS,
  type CatalogueKey,
  digitsOnly,
  documentLabelKey,
  FRONT_DIGITS,
  type FunnelEvent,
  type FunnelState,
  type IntroField,
  messageText,
  needsAddress,
  SIDO_NAMES,
  siggOf,
} from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';
import { CERTIFICATE_DOCUMENTS } from '@ferry/contracts';
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { StepHeading } from '../components/StepHeading.js';

interface StepProps {
  state: FunnelState;
  dispatch: (event: FunnelEvent) => void;
}

const FAMILY_FIELDS = ['fthrNm', 'mthrNm', 'sposNm', 'childNm'] as const;
const familyLabelKey = (field: (typeof FAMILY_FIELDS)[number]): CatalogueKey => `intro.family.${field}`;

/** aria wiring for a field, its error sentence and an optional hint. */
const fieldProps = (state: FunnelState, field: IntroField, hint?: string) => {
  const describedBy = [hint, state.fieldErrors[field] ? `${field}-error` : undefined].filter(Boolean).join(' ');
  return {
    'aria-invalid': state.fieldErrors[field] !== undefined,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
  };
};

function FieldError({ state, field }: { state: FunnelState; field: IntroField }) {
  const { t } = useCertificateTranslation();
  const message = state.fieldErrors[field];
  return message ? (
    <p id={`${field}-error`} className="field-error">
      {messageText(t, message)}
    </p>
  ) : null;
}

export function IntroStep({ state, dispatch }: StepProps) {
  const { t } = useCertificateTranslation();
  const form = useRef<HTMLFormElement>(null);
  // A failed submit is shown once, next to the fields; focus moves to the first one to fix.
  const [submits, setSubmits] = useState(0);
  useEffect(() => {
    if (submits > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [submits]);

  const change =
    (field: IntroField, maxDigits?: number) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      dispatch({
        type: 'fieldChanged',
        field,
        value: maxDigits ? digitsOnly(event.target.value, maxDigits) : event.target.value,
      });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    dispatch({ type: 'introSubmitted' });
    setSubmits((count) => count + 1);
  };
  const { intro } = state;

  return (
    <section aria-labelledby="intro-heading">
      <StepHeading id="intro-heading">{t('intro.heading')}</StepHeading>
      <form ref={form} onSubmit={submit} noValidate aria-busy={state.pending !== null}>
        <fieldset>
          <legend>{t('intro.documentLegend')}</legend>
          {CERTIFICATE_DOCUMENTS.map((document) => (
            <label key={document} className="choice">
              <input
                type="radio"
                name="document"
                value={document}
                checked={state.document === document}
                onChange={() => dispatch({ type: 'documentChosen', document })}
              />
              {t(documentLabelKey(document))}
            </label>
          ))}
        </fieldset>

        <fieldset>
          <legend>{t('intro.residentNumberLegend')}</legend>
          <p id="rrn-hint" className="hint">
            {t('intro.residentNumberHint')}
          </p>
          <div className="rrn">
            <div className="field">
              <label htmlFor="rrn-front">{t('intro.front')}</label>
              <input
                id="rrn-front"
                name="rrn-front"
                inputMode="numeric"
                autoComplete="off"
                value={intro.front}
                onChange={change('front', FRONT_DIGITS)}
                {...fieldProps(state, 'front', 'rrn-hint')}
              />
            </div>
            <span aria-hidden="true" className="rrn-dash">
              –
            </span>
            <div className="field">
              <label htmlFor="rrn-back">{t('intro.back')}</label>
              <input
                id="rrn-back"
                name="rrn-back"
                type="password"
                inputMode="numeric"
                autoComplete="off"
                value={intro.back}
                onChange={change('back', BACK_DIGITS)}
                {...fieldProps(state, 'back', 'rrn-hint')}
              />
            </div>
          </div>
          {/* Under both boxes, full width: a long sentence does not squeeze one box at 390 px. */}
          <FieldError state={state} field="front" />
          <FieldError state={state} field="back" />
        </fieldset>

        {needsAddress(state.document) ? (
          <fieldset>
            <legend>{t('intro.addressLegend')}</legend>
            <div className="field">
              <label htmlFor="sido">{t('intro.sido')}</label>
              <select id="sido" value={intro.sido} onChange={change('sido')} {...fieldProps(state, 'sido')}>
                <option value="">{t('intro.sidoPlaceholder')}</option>
                {SIDO_NAMES.map((sido) => (
                  <option key={sido} value={sido} lang="ko">
                    {sido}
                  </option>
                ))}
              </select>
              <FieldError state={state} field="sido" />
            </div>
            <div className="field">
              <label htmlFor="sigg">{t('intro.sigg')}</label>
              <select
                id="sigg"
                value={intro.sigg}
                onChange={change('sigg')}
                disabled={intro.sido === ''}
                {...fieldProps(state, 'sigg')}
              >
                <option value="">{intro.sido === '' ? t('intro.siggNeedsSido') : t('intro.siggPlaceholder')}</option>
                {siggOf(intro.sido).map((sigg) => (
                  <option key={sigg} value={sigg} lang="ko">
                    {sigg}
                  </option>
                ))}
              </select>
              <FieldError state={state} field="sigg" />
            </div>
          </fieldset>
        ) : (
          <fieldset>
            <legend>{t('intro.familyLegend')}</legend>
            {FAMILY_FIELDS.map((field) => (
              <div className="field" key={field}>
                <label htmlFor={field}>{t(familyLabelKey(field))}</label>
                <input
                  id={field}
                  autoComplete="off"
                  maxLength={64}
                  value={intro[field]}
                  onChange={change(field)}
                  {...fieldProps(state, field)}
                />
                <FieldError state={state} field={field} />
              </div>
            ))}
          </fieldset>
        )}

        <div className="actions">
          <button type="submit" className="primary" aria-disabled={state.pending !== null}>
            {t('intro.next')}
          </button>
        </div>
      </form>
    </section>
  );
}
