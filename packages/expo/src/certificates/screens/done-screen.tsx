import { Linking, Share, View } from 'react-native';
import { KeepAllText } from '../../text/keep-all-text.js';
import { ActionButton } from './action-button.js';
import { ChosenDocument } from './chosen-document.js';
import { useFunnelText } from './funnel-copy.js';
import { funnelStyles } from './funnel-styles.js';
import { StepHeading } from './step-heading.js';
import type { CertificateStepProps } from './step-props.js';

/**
 * The certificate is issued. "Open" hands the pre-signed PDF link to the system (the browser or the
 * PDF viewer shows it and offers to save it); "Share" opens the system share sheet with the link.
 * Both are React Native core APIs, so the funnel needs no extra native module.
 */
export function DoneScreen({ state, dispatch }: CertificateStepProps) {
  const text = useFunnelText();
  const url = state.preSignedUrl ?? '';
  const document = text.document(state.document);
  return (
    <View style={funnelStyles.screen} testID="certificate-done">
      <StepHeading>{text.t('done.heading')}</StepHeading>
      <ChosenDocument document={state.document} />
      <KeepAllText style={funnelStyles.body}>
        {state.certificateLink
          ? text.t('done.issued', { minutes: state.certificateLink.minutes })
          : text.t('done.issuedWithoutLimit')}
      </KeepAllText>
      <View style={funnelStyles.actions}>
        <ActionButton
          primary
          label={text.t('done.open')}
          onPress={() => void Linking.openURL(url).catch(() => undefined)}
          testID="certificate-open-pdf"
        />
        <ActionButton
          label={text.t('done.share')}
          // iOS shares the URL as a link; Android only shares `message`, so it carries the link too.
          onPress={() => void Share.share({ url, message: url, title: document }).catch(() => undefined)}
          testID="certificate-share-pdf"
        />
        <ActionButton
          label={text.t('done.restart')}
          onPress={() => dispatch({ type: 'restarted' })}
          testID="certificate-restart"
        />
      </View>
    </View>
  );
}
