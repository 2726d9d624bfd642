import { FUNNEL_STEPS, type FunnelStep } from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';

export function ProgressSteps({ step }: { step: FunnelStep }) {
  const { t } = useCertificateTranslation();
  const current = FUNNEL_STEPS.indexOf(step);
  return (
    <nav aria-label={t('progress.label')}>
      <ol className="progress">
        {FUNNEL_STEPS.map((name, index) => (
          <li
            key={name}
            aria-current={index === current ? 'step' : undefined}
            className={index < current ? 'progress-done' : undefined}
          >
            <span className="visually-hidden">
              {t('progress.position', { current: index + 1, total: FUNNEL_STEPS.length })}
            </span>
            {t(`steps.${name}`)}
          </li>
        ))}
      </ol>
    </nav>
  );
}
