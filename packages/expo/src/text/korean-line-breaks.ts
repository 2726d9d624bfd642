import { keepHangulWords } from './keep-hangul-words.js';

/** What a text needs on one platform so that a line never breaks inside a Korean word. */
export interface KoreanLineBreaks {
  /** Props for React Native's Text. */
  props: { lineBreakStrategyIOS?: 'hangul-word' };
  /** A style for react-native-web's Text (CSS), or null. */
  style: { wordBreak: 'keep-all' } | null;
  /** Rewrites the text itself, where the platform has no setting for it. */
  text(text: string): string;
}

const unchanged = (text: string) => text;

/**
 * The one rule for Korean line breaks, per `Platform.OS`:
 * - iOS: `lineBreakStrategyIOS="hangul-word"` (NSLineBreakStrategyHangulWordPriority, iOS 14+).
 * - web (react-native-web): CSS `word-break: keep-all`.
 * - Android, and any other platform: React Native has no setting (Android's
 *   `LINE_BREAK_WORD_STYLE_PHRASE` is not exposed, and `textBreakStrategy` or
 *   `android_hyphenationFrequency` only choose among the break opportunities Hangul offers between
 *   any two syllables), so word joiners go between the letters of each Korean word.
 */
export function koreanLineBreaks(os: string): KoreanLineBreaks {
  if (os === 'ios') return { props: { lineBreakStrategyIOS: 'hangul-word' }, style: null, text: unchanged };
  if (os === 'web') return { props: {}, style: { wordBreak: 'keep-all' }, text: unchanged };
  return { props: {}, style: null, text: keepHangulWords };
}
