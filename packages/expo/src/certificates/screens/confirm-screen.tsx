import { providerByCode } from '@ferry/contracts';
import { View } from 'react-native';
import { KeepAllText } from '../../text/keep-all-text.js';
import { ActionButton } from './action-button.js';
import { ChosenDocument } from './chosen-document.js';
import { useFunnelText } from './funnel-copy.js';
import { funnelStyles } from './funnel-styles.js';
import { StepHeading } from './step-heading.js';
import type { CertificateStepProps } from './step-props.js';

/**
 * The person approves in the provider app, then presses Complete, which sends the second call.
 * "Not approved yet" and "expired" arrive as alerts (the funnel has no error step).
 */
export function ConfirmScreen({ state, dispatch }: CertificateStepProps) {
  const text = useFunnelText();
  const busy = state.pending !== null;
  const provider = state.loginOrgCd ? text.provider(providerByCode(state.loginOrgCd)) : text.t('confirm.anyProvider');
  const steps = [text.t('confirm.open', { provider }), text.t('confirm.approve'), text.t('confirm.comeBack')];
  return (
    <View style={funnelStyles.screen} testID="certificate-confirm">
      <StepHeading>{text.t('confirm.heading', { provider })}</StepHeading>
      <ChosenDocument document={state.document} />
      <View role="list" style={funnelStyles.group}>
        {steps.map((line, index) => (
          <KeepAllText key={line} role="listitem" style={funnelStyles.body}>{`${index + 1}. ${line}`}</KeepAllText>
        ))}
      </View>
      <View style={funnelStyles.actions}>
        <ActionButton
          primary
          label={text.t('confirm.complete')}
          disabled={busy}
          onPress={() => dispatch({ type: 'completePressed' })}
          testID="certificate-complete"
        />
        <ActionButton
          label={text.t('confirm.chooseAnother')}
          disabled={busy}
          onPress={() => dispatch({ type: 'backPressed' })}
          testID="certificate-back"
        />
      </View>
    </View>
  );
}
