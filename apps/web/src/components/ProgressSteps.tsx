import { FUNNEL_STEPS, type FunnelStep } from '@ferry/certificate-flow';

const LABELS: Record<FunnelStep, string> = {
  intro: 'Your details',
  simpleVerification: 'Choose a provider',
  confirm: 'Approve',
  done: 'Certificate',
};

export function ProgressSteps({ step }: { step: FunnelStep }) {
  const current = FUNNEL_STEPS.indexOf(step);
  return (
    <nav aria-label="Progress">
      <ol className="progress">
        {FUNNEL_STEPS.map((name, index) => (
          <li
            key={name}
            aria-current={index === current ? 'step' : undefined}
            className={index < current ? 'progress-done' : undefined}
          >
            <span className="visually-hidden">{`Step ${index + 1} of ${FUNNEL_STEPS.length}: `}</span>
            {LABELS[name]}
          </li>
        ))}
      </ol>
    </nav>
  );
}
