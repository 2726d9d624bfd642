import { FUNNEL_STEPS, type FunnelStep } from '@ferry/certificate-flow';
import { KeepAllText } from '../../text/keep-all-text.js';
import { useFunnelText } from './funnel-copy.js';
import { funnelStyles } from './funnel-styles.js';

/** "Step 2 of 4: Choose a provider", read as one line. */
export function ProgressSteps({ step }: { step: FunnelStep }) {
  const text = useFunnelText();
  const current = FUNNEL_STEPS.indexOf(step) + 1;
  return (
    <KeepAllText style={funnelStyles.muted} testID="certificate-progress">
      {`${text.t('progress.position', { current, total: FUNNEL_STEPS.length })}${text.t(`steps.${step}`)}`}
    </KeepAllText>
  );
}
