import { type FunnelEvent, type FunnelState, providerLabelKey } from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';
import { StepHeading } from '../components/StepHeading.js';

interface StepProps {
  state: FunnelState;
  dispatch: (event: FunnelEvent) => void;
}

/** The person approves in the provider app, then presses Complete, which sends the second call. */
export function ConfirmStep({ state, dispatch }: StepProps) {
  const { t } = useCertificateTranslation();
  const busy = state.pending !== null;
  const provider = state.loginOrgCd ? t(providerLabelKey(state.loginOrgCd)) : t('confirm.anyProvider');
  return (
    <section aria-labelledby="confirm-heading">
      <StepHeading id="confirm-heading">{t('confirm.heading', { provider })}</StepHeading>
      <ol className="instructions">
        <li>{t('confirm.open', { provider })}</li>
        <li>{t('confirm.approve')}</li>
        <li>{t('confirm.comeBack')}</li>
      </ol>
      <div className="actions">
        <button
          type="button"
          className="primary"
          aria-disabled={busy}
          onClick={() => dispatch({ type: 'completePressed' })}
        >
          {t('confirm.complete')}
        </button>
        <button type="button" aria-disabled={busy} onClick={() => dispatch({ type: 'backPressed' })}>
          {t('confirm.chooseAnother')}
        </button>
      </div>
    </section>
  );
}
