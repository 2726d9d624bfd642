import { View } from 'react-native';
import { KeepAllText } from '../../text/keep-all-text.js';
import { CERTIFICATE_PROVIDERS } from '../certificate-providers.js';
import { ActionButton } from './action-button.js';
import { ChosenDocument } from './chosen-document.js';
import { useFunnelText } from './funnel-copy.js';
import { funnelStyles } from './funnel-styles.js';
import { StepHeading } from './step-heading.js';
import type { CertificateStepProps } from './step-props.js';

/** The five providers, in the contracts' order, with their labels and colours. Choosing one sends the first call. */
export function SimpleVerificationScreen({ state, dispatch }: CertificateStepProps) {
  const text = useFunnelText();
  const busy = state.pending !== null;
  return (
    <View style={funnelStyles.screen} testID="certificate-simpleVerification">
      <StepHeading>{text.t('verification.heading')}</StepHeading>
      <ChosenDocument document={state.document} />
      <KeepAllText style={funnelStyles.body}>{text.t('verification.help')}</KeepAllText>
      <View style={funnelStyles.actions}>
        {CERTIFICATE_PROVIDERS.map((provider) => (
          <ActionButton
            key={provider.code}
            label={text.provider(provider)}
            disabled={busy}
            onPress={() => dispatch({ type: 'providerChosen', provider: provider.code })}
            style={{ backgroundColor: provider.color, borderColor: provider.color }}
            textColor={provider.textColor}
            testID={`certificate-provider-${provider.code}`}
          />
        ))}
      </View>
      <ActionButton
        label={text.t('verification.back')}
        disabled={busy}
        onPress={() => dispatch({ type: 'backPressed' })}
        testID="certificate-back"
      />
      <KeepAllText style={funnelStyles.muted}>{text.t('verification.backHint')}</KeepAllText>
    </View>
  );
}
