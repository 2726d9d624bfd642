import { Children, type ReactNode, type Ref } from 'react';
import { Platform, Text, type TextProps, type TextStyle } from 'react-native';
import { koreanLineBreaks } from './korean-line-breaks.js';

export type KeepAllTextProps = TextProps & { ref?: Ref<Text> };

const joinStrings = (children: ReactNode, text: (text: string) => string): ReactNode =>
  typeof children === 'string'
    ? text(children)
    : Array.isArray(children)
      ? Children.map(children, (child) => (typeof child === 'string' ? text(child) : child))
      : children;

/**
 * React Native's Text that never breaks a line inside a Korean word (`word-break: keep-all`): the
 * platform's setting where it has one (iOS `lineBreakStrategyIOS="hangul-word"`, CSS on the web),
 * word joiners in the text where it has none (Android). Every text the SDK draws goes through it; an
 * app's own props override the defaults. On Android the screen reader gets the text without joiners.
 */
export function KeepAllText({ children, style, ...props }: KeepAllTextProps) {
  const breaks = koreanLineBreaks(Platform.OS);
  const shown = joinStrings(children, breaks.text);
  const spoken =
    shown !== children && props.accessibilityLabel === undefined && typeof children === 'string'
      ? { accessibilityLabel: children }
      : null;
  // `wordBreak` is a react-native-web style; React Native's TextStyle does not declare it.
  const webStyle = breaks.style as TextStyle | null;
  return (
    <Text {...breaks.props} {...spoken} {...props} style={webStyle ? [webStyle, style] : style}>
      {shown}
    </Text>
  );
}
