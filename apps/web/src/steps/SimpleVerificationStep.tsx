import { CERTIFICATE_PROVIDERS, type FunnelEvent, type FunnelState, providerLabelKey } from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';
import { StepHeading } from '../components/StepHeading.js';

interface StepProps {
  state: FunnelState;
  dispatch: (event: FunnelEvent) => void;
}

/** The five providers, in the shared order, labels and colours. Choosing one sends the first call. */
export function SimpleVerificationStep({ state, dispatch }: StepProps) {
  const { t } = useCertificateTranslation();
  const busy = state.pending !== null;
  return (
    <section aria-labelledby="verification-heading">
      <StepHeading id="verification-heading">{t('verification.heading')}</StepHeading>
      <p id="provider-help">{t('verification.help')}</p>
      <ul className="providers" aria-describedby="provider-help" aria-busy={busy}>
        {CERTIFICATE_PROVIDERS.map((provider) => (
          <li key={provider.code}>
            <button
              type="button"
              className="provider"
              data-provider={provider.code}
              style={{ backgroundColor: provider.color, color: provider.textColor }}
              aria-disabled={busy}
              aria-pressed={state.loginOrgCd === provider.code}
              onClick={() => dispatch({ type: 'providerChosen', provider: provider.code })}
            >
              {t(providerLabelKey(provider.code))}
            </button>
          </li>
        ))}
      </ul>
      <div className="actions">
        <button
          type="button"
          aria-disabled={busy}
          aria-describedby="verification-back-hint"
          onClick={() => dispatch({ type: 'backPressed' })}
        >
          {t('verification.back')}
        </button>
      </div>
      {/* Going back wipes nothing the person sees but the back part, which is never kept: said before they press. */}
      <p id="verification-back-hint" className="hint">
        {t('verification.backHint')}
      </p>
    </section>
  );
}
