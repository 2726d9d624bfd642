import { Pressable, type StyleProp, type ViewStyle } from 'react-native';
import { KeepAllText } from '../../text/keep-all-text.js';
import { funnelStyles } from './funnel-styles.js';

export interface ActionButtonProps {
  label: string;
  onPress(): void;
  primary?: boolean;
  /** Busy: the button stays focusable and announced as disabled; the reducer ignores presses anyway. */
  disabled?: boolean;
  hint?: string;
  style?: StyleProp<ViewStyle>;
  textColor?: string;
  testID?: string;
}

/** A full-width button, at least 48 pt tall, announced as a button with its disabled state. */
export function ActionButton({ label, onPress, primary, disabled, hint, style, textColor, testID }: ActionButtonProps) {
  return (
    <Pressable
      accessibilityRole="button"
      accessibilityLabel={label}
      accessibilityHint={hint}
      aria-disabled={Boolean(disabled)}
      disabled={disabled}
      onPress={onPress}
      testID={testID}
      style={({ pressed }) => [
        funnelStyles.button,
        primary && funnelStyles.buttonPrimary,
        style,
        pressed && funnelStyles.pressed,
        disabled && funnelStyles.disabled,
      ]}
    >
      <KeepAllText
        style={[
          funnelStyles.buttonText,
          primary && funnelStyles.buttonTextPrimary,
          textColor ? { color: textColor } : null,
        ]}
      >
        {label}
      </KeepAllText>
    </Pressable>
  );
}
