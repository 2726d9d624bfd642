import {
  BACK_DIGITS,
  DOCUMENT_LABELS,
  digitsOnly,
  FRONT_DIGITS,
  type FunnelEvent,
  type FunnelState,
  type IntroField,
  needsAddress,
  SIDO_NAMES,
  siggOf,
} from '@ferry/certificate-flow';
import { CERTIFICATE_DOCUMENTS } from '@ferry/contracts';
import type { ChangeEvent, FormEvent } from 'react';
import { StepHeading } from '../components/StepHeading.js';

interface StepProps {
  state: FunnelState;
  dispatch: (event: FunnelEvent) => void;
}

const FAMILY_FIELDS: Array<[IntroField, string]> = [
  ['fthrNm', "Father's name"],
  ['mthrNm', "Mother's name"],
  ['sposNm', "Spouse's name"],
  ['childNm', "Child's name"],
];

/** aria wiring for a field and its error sentence. */
const errorProps = (state: FunnelState, field: IntroField) =>
  state.fieldErrors[field]
    ? { 'aria-invalid': true as const, 'aria-describedby': `${field}-error` }
    : { 'aria-invalid': false as const };

function FieldError({ state, field }: { state: FunnelState; field: IntroField }) {
  const message = state.fieldErrors[field];
  return message ? (
    <p id={`${field}-error`} className="field-error">
      {message}
    </p>
  ) : null;
}

export function IntroStep({ state, dispatch }: StepProps) {
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
  };
  const { intro } = state;

  return (
    <section aria-labelledby="intro-heading">
      <StepHeading id="intro-heading">Request a certificate</StepHeading>
      <form onSubmit={submit} noValidate aria-busy={state.pending !== null}>
        <fieldset>
          <legend>Which certificate do you need?</legend>
          {CERTIFICATE_DOCUMENTS.map((document) => (
            <label key={document} className="choice">
              <input
                type="radio"
                name="document"
                value={document}
                checked={state.document === document}
                onChange={() => dispatch({ type: 'documentChosen', document })}
              />
              {DOCUMENT_LABELS[document]}
            </label>
          ))}
        </fieldset>

        <fieldset>
          <legend>Resident registration number</legend>
          <div className="rrn">
            <div className="field">
              <label htmlFor="rrn-front">First 6 digits (date of birth, YYMMDD)</label>
              <input
                id="rrn-front"
                name="rrn-front"
                inputMode="numeric"
                autoComplete="off"
                value={intro.front}
                onChange={change('front', FRONT_DIGITS)}
                {...errorProps(state, 'front')}
              />
              <FieldError state={state} field="front" />
            </div>
            <span aria-hidden="true" className="rrn-dash">
              –
            </span>
            <div className="field">
              <label htmlFor="rrn-back">Last 7 digits (hidden, sent encrypted)</label>
              <input
                id="rrn-back"
                name="rrn-back"
                type="password"
                inputMode="numeric"
                autoComplete="off"
                value={intro.back}
                onChange={change('back', BACK_DIGITS)}
                {...errorProps(state, 'back')}
              />
              <FieldError state={state} field="back" />
            </div>
          </div>
        </fieldset>

        {needsAddress(state.document) ? (
          <fieldset>
            <legend>Registered address</legend>
            <div className="field">
              <label htmlFor="sido">Province or city</label>
              <select id="sido" value={intro.sido} onChange={change('sido')} {...errorProps(state, 'sido')}>
                <option value="">Choose a province or city</option>
                {SIDO_NAMES.map((sido) => (
                  <option key={sido} value={sido} lang="ko">
                    {sido}
                  </option>
                ))}
              </select>
              <FieldError state={state} field="sido" />
            </div>
            <div className="field">
              <label htmlFor="sigg">District</label>
              <select
                id="sigg"
                value={intro.sigg}
                onChange={change('sigg')}
                disabled={intro.sido === ''}
                {...errorProps(state, 'sigg')}
              >
                <option value="">{intro.sido === '' ? 'Choose a province or city first' : 'Choose a district'}</option>
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
            <legend>Family members (enter at least one name)</legend>
            {FAMILY_FIELDS.map(([field, label]) => (
              <div className="field" key={field}>
                <label htmlFor={field}>{label}</label>
                <input
                  id={field}
                  autoComplete="off"
                  maxLength={64}
                  value={intro[field]}
                  onChange={change(field)}
                  {...errorProps(state, field)}
                />
                <FieldError state={state} field={field} />
              </div>
            ))}
          </fieldset>
        )}

        <div className="actions">
          <button type="submit" className="primary" aria-disabled={state.pending !== null}>
            Next
          </button>
        </div>
      </form>
    </section>
  );
}
