import { KeepAllText } from '../../text/keep-all-text.js';
import { funnelStyles } from './funnel-styles.js';

/** A field's error sentence, announced politely when it appears (the only place validation shows). */
export function FieldError({ message, testID }: { message: string | undefined; testID?: string }) {
  if (!message) return null;
  return (
    <KeepAllText style={funnelStyles.fieldError} aria-live="polite" accessibilityRole="text" testID={testID}>
      {message}
    </KeepAllText>
  );
}
