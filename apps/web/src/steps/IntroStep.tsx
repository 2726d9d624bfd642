import {
  BACK_DIGITS,
  type CatalogueKey,
  digitEntry,
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

/** aria wiring for a field, its error sentence and optional hints. */
const fieldProps = (state: FunnelState, field: IntroField, ...hints: Array<string | undefined>) => {
  const describedBy = [...hints, state.fieldErrors[field] ? `${field}-error` : undefined].filter(Boolean).join(' ');
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

/** The two number fields, which keep digits only. */
type NumberField = 'front' | 'back';

/** Why the back part is empty again: a reload (it is never kept), or a step back from the provider choice. */
export function BackAgain({ state }: { state: FunnelState }) {
  const { t } = useCertificateTranslation();
  return (
    <p id="back-again" className="notice">
      <strong>{t('verification.backHint')}</strong>
      {state.backAgain === 'reloaded' ? (
        <>
          <br />
          {t('resume.backAgain')}
        </>
      ) : null}
    </p>
  );
}

export function IntroStep({ state, dispatch }: StepProps) {
  const { t } = useCertificateTranslation();
  const form = useRef<HTMLFormElement>(null);
  // A number field that just refused something other than digits says so, instead of dropping it silently.
  const [refused, setRefused] = useState<Partial<Record<NumberField, boolean>>>({});
  // A failed submit is shown once, next to the fields; focus moves to the first one to fix.
  const [submits, setSubmits] = useState(0);
  useEffect(() => {
    if (submits > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [submits]);

  const change = (field: IntroField) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    dispatch({ type: 'fieldChanged', field, value: event.target.value });
  const changeNumber = (field: NumberField, maxDigits: number) => (event: ChangeEvent<HTMLInputElement>) => {
    const { value, refused: refusedNow } = digitEntry(event.target.value, maxDigits);
    setRefused((current) => ({ ...current, [field]: refusedNow }));
    dispatch({ type: 'fieldChanged', field, value });
  };
  const digitsNote = (field: NumberField) => (refused[field] ? `${field}-digits-only` : undefined);
  const backAgainNote = state.backAgain ? 'back-again' : undefined;
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
                onChange={changeNumber('front', FRONT_DIGITS)}
                {...fieldProps(state, 'front', 'rrn-hint', digitsNote('front'))}
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
                onChange={changeNumber('back', BACK_DIGITS)}
                {...fieldProps(state, 'back', 'rrn-hint', backAgainNote, digitsNote('back'))}
              />
            </div>
          </div>
          {/* Under both boxes, full width: a long sentence does not squeeze one box at 390 px. */}
          <FieldError state={state} field="front" />
          <FieldError state={state} field="back" />
          {/* Announced as it appears: a typed letter was not taken. */}
          <div role="status" className="field-notes">
            {(['front', 'back'] as const).map((field) =>
              refused[field] ? (
                <p key={field} id={`${field}-digits-only`} className="field-note">
                  {t(`intro.${field}`)}: {t('validation.digitsOnly')}
                </p>
              ) : null,
            )}
          </div>
          {state.backAgain ? <BackAgain state={state} /> : null}
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
