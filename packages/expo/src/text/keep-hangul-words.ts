/** U+2060 WORD JOINER: invisible, and no line may break on either side of it (UAX #14, LB11). */
export const WORD_JOINER = '\u2060';

// Hangul syllables and compatibility jamo: what Korean text is written in.
const HANGUL = /[\uAC00-\uD7A3\u3131-\u318E]/u;
// Letters and digits, the units CSS `word-break: keep-all` keeps together; the conjoining jamo are
// left out, since a joiner between them would stop them composing into one syllable.
const LETTER = /[\p{L}\p{N}]/u;
const CONJOINING_JAMO = /[\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF]/u;

const joinable = (char: string) => LETTER.test(char) && !CONJOINING_JAMO.test(char);

/**
 * The text with a word joiner between every two adjacent letters or digits of which at least one is
 * Hangul, so a line can break only where it could in a language written with spaces: at the spaces
 * and where punctuation allows it, never inside a Korean word ("주세/요"). This is CSS
 * `word-break: keep-all` done in the text itself, for text engines that have no such setting
 * (React Native on Android). Text without Hangul comes back unchanged, as the same string.
 */
export function keepHangulWords(text: string): string {
  if (!HANGUL.test(text)) return text;
  let joined = '';
  let previous = '';
  for (const char of text) {
    if (previous && joinable(previous) && joinable(char) && (HANGUL.test(previous) || HANGUL.test(char))) {
      joined += WORD_JOINER;
    }
    joined += char;
    previous = char;
  }
  return joined;
}
