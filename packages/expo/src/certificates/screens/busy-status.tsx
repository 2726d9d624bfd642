import type { PendingWork } from '@ferry/certificate-flow';
import { ActivityIndicator, View } from 'react-native';
import { KeepAllText } from '../../text/keep-all-text.js';
import { useFunnelText } from './funnel-copy.js';
import { COLORS, funnelStyles } from './funnel-styles.js';

/**
 * What is happening while a call is in flight, announced politely without moving focus. The sentence
 * says it; the spinner is hidden from screen readers (it would be a progress bar without a name).
 */
export function BusyStatus({ pending }: { pending: PendingWork | null }) {
  const text = useFunnelText();
  return (
    <View aria-live="polite" style={{ minHeight: 24, flexDirection: 'row', gap: 8, alignItems: 'center' }}>
      {pending ? (
        <>
          <ActivityIndicator color={COLORS.primary} aria-hidden />
          <KeepAllText style={funnelStyles.muted}>{text.t(`busy.${pending.kind}`)}</KeepAllText>
        </>
      ) : null}
    </View>
  );
}
