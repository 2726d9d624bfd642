import { useEffect, useRef } from 'react';
import { AccessibilityInfo, type Text } from 'react-native';
import { KeepAllText } from '../../text/keep-all-text.js';
import { funnelStyles } from './funnel-styles.js';

/**
 * The heading of a step. When the step appears the screen reader's focus moves to it, so VoiceOver
 * and TalkBack users start at the top of the new step, not on a button that no longer exists.
 */
export function StepHeading({ children, testID }: { children: string; testID?: string }) {
  const heading = useRef<Text>(null);
  useEffect(() => {
    const node = heading.current;
    // react-native-web has no accessibility events; there the heading is simply first in order.
    if (node && typeof AccessibilityInfo.sendAccessibilityEvent === 'function') {
      try {
        AccessibilityInfo.sendAccessibilityEvent(node, 'focus');
      } catch {
        // Moving focus is a courtesy; a platform that cannot do it keeps the natural order.
      }
    }
  }, []);
  return (
    <KeepAllText ref={heading} accessibilityRole="header" style={funnelStyles.heading} testID={testID}>
      {children}
    </KeepAllText>
  );
}
