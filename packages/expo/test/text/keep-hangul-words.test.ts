import { describe, expect, it } from 'vitest';
import { keepHangulWords, WORD_JOINER } from '../../src/text/keep-hangul-words.js';
import { koreanLineBreaks } from '../../src/text/korean-line-breaks.js';

/** The text with each word joiner shown as `⁀`, so a table reads where they go. */
const shown = (text: string) => text.replaceAll(WORD_JOINER, '⁀');

describe('keepHangulWords', () => {
  it.each([
    // Between the letters of a Korean word, never at its spaces
    ['입력해 주세요', '입⁀력⁀해 주⁀세⁀요'],
    ['다음', '다⁀음'],
    ['가', '가'],
    // Letters and digits next to Hangul belong to the word
    ['1분 뒤에', '1⁀분 뒤⁀에'],
    ['PDF 열기', 'PDF 열⁀기'],
    ['SMS로', 'SMS⁀로'],
    ['ㅋㅋ', 'ㅋ⁀ㅋ'], // compatibility jamo
    // Punctuation keeps the break opportunities it has in CSS keep-all (none before 。.,), before "(")
    ['생년월일(YYMMDD)이에요.', '생⁀년⁀월⁀일(YYMMDD)이⁀에⁀요.'],
    ['시·도', '시·도'],
    ['[인증 완료]를', '[인⁀증 완⁀료]를'],
    ['아버지, 어머니', '아⁀버⁀지, 어⁀머⁀니'],
    // Line breaks and other spaces stay break opportunities
    ['첫째\n둘째', '첫⁀째\n둘⁀째'],
    ['가\u00A0나', '가\u00A0나'],
    // Conjoining jamo compose into one syllable: nothing goes between them
    ['\u1112\u1161\u11AB\u1100\u1173\u11AF', '\u1112\u1161\u11AB\u1100\u1173\u11AF'],
    // A combining mark stays on its letter
    ['가\u0301나', '가\u0301나'],
    // Outside the Basic Multilingual Plane, characters stay whole
    ['😀가', '😀가'],
    ['한𝟙', '한⁀𝟙'],
  ])('%j → %j', (text, expected) => {
    expect(shown(keepHangulWords(text))).toBe(shown(expected.replaceAll('⁀', WORD_JOINER)));
  });

  it.each(['', 'Next', 'Update now', 'Step 2 of 4: Verification', '日本語のテキスト', '✕'])(
    'returns text without Hangul unchanged: %j',
    (text) => {
      expect(keepHangulWords(text)).toBe(text);
    },
  );

  it('changes nothing but the joiners', () => {
    const sentence = '아버지, 어머니, 배우자, 자녀 중 한 명 이상의 성명을 입력해 주세요.';
    expect(keepHangulWords(sentence).replaceAll(WORD_JOINER, '')).toBe(sentence);
  });
});

describe('koreanLineBreaks: one rule per platform', () => {
  const sentence = '입력해 주세요';
  it.each([
    ['ios', { lineBreakStrategyIOS: 'hangul-word' }, null, sentence],
    ['web', {}, { wordBreak: 'keep-all' }, sentence],
    ['android', {}, null, keepHangulWords(sentence)],
    // Platforms without a setting of their own (react-native-windows, -macos) get the joiners too.
    ['windows', {}, null, keepHangulWords(sentence)],
    ['macos', {}, null, keepHangulWords(sentence)],
  ])('%s', (os, props, style, text) => {
    const breaks = koreanLineBreaks(os);
    expect(breaks.props).toEqual(props);
    expect(breaks.style).toEqual(style);
    expect(breaks.text(sentence)).toBe(text);
  });
});
