import type { FunnelEvent, FunnelState } from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';
import { StepHeading } from '../components/StepHeading.js';

interface StepProps {
  state: FunnelState;
  dispatch: (event: FunnelEvent) => void;
}

/** The certificate is issued: open it in a new tab or download it (the link expires after a while). */
export function DoneStep({ state, dispatch }: StepProps) {
  const { t } = useCertificateTranslation();
  const url = state.preSignedUrl ?? '';
  return (
    <section aria-labelledby="done-heading">
      <StepHeading id="done-heading">{t('done.heading')}</StepHeading>
      {/* The chosen document is named just above (ChosenDocument), so the sentence does not repeat it. */}
      <p>{t('done.issued')}</p>
      <div className="actions">
        <a className="button primary" href={url} target="_blank" rel="noopener noreferrer">
          {t('done.open')}
          <span className="visually-hidden">{t('done.opensInNewTab')}</span>
        </a>
        <a className="button" href={url} download="certificate.pdf">
          {t('done.download')}
        </a>
        <button type="button" onClick={() => dispatch({ type: 'restarted' })}>
          {t('done.restart')}
        </button>
      </div>
    </section>
  );
}
