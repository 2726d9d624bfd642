import type { CertificateDocument } from '@ferry/contracts';
import { KeepAllText } from '../../text/keep-all-text.js';
import { useFunnelText } from './funnel-copy.js';
import { funnelStyles } from './funnel-styles.js';

/** The document being requested, repeated on the later steps so the person knows what they approve. */
export function ChosenDocument({ document }: { document: CertificateDocument }) {
  const text = useFunnelText();
  return (
    <KeepAllText style={funnelStyles.subheading} testID="certificate-chosen-document">
      {text.t('chosenDocument', { document: text.document(document) })}
    </KeepAllText>
  );
}
