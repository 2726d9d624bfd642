import { describe, expect, it } from 'vitest';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, languageOfLocale, languageOr } from './languages.js';

describe('languages', () => {
  it('are Korean first, then English; Korean is the default', () => {
    expect(LANGUAGES).toEqual(['ko', 'en']);
    expect(DEFAULT_LANGUAGE).toBe('ko');
  });

  it.each([
    ['ko', true, 'ko'],
    ['en', true, 'en'],
    ['ja', false, 'ko'],
    ['KO', false, 'ko'],
    ['', false, 'ko'],
    [undefined, false, 'ko'],
    [null, false, 'ko'],
    [1, false, 'ko'],
  ] as const)('%s: a language %s, shown as %s', (value, known, shown) => {
    expect(isLanguage(value)).toBe(known);
    expect(languageOr(value)).toBe(shown);
  });
});

describe('languageOfLocale', () => {
  it.each([
    // Korean, however the platform spells it
    ['ko', 'ko'],
    ['ko-KR', 'ko'],
    ['ko_KR', 'ko'], // Android's Locale.toString()
    ['ko-Kore-KR', 'ko'],
    ['KO-kr', 'ko'],
    ['kor', 'ko'], // ISO 639-2
    [' ko-KR ', 'ko'],
    ['ko-KR-u-ca-dangi', 'ko'],
    // Any other language is English, the one alternative
    ['en', 'en'],
    ['en-US', 'en'],
    ['en_KR', 'en'], // English on a Korean-region device: the person reads English
    ['ja-JP', 'en'],
    ['zh-Hans-CN', 'en'],
    ['kok-IN', 'en'], // Konkani, not Korean
    ['kor-x', 'ko'],
    // Nothing readable: Korean, the default
    ['', 'ko'],
    ['   ', 'ko'],
    ['-KR', 'ko'],
    ['1234', 'ko'],
    [undefined, 'ko'],
    [null, 'ko'],
    [42, 'ko'],
    [['ko-KR'], 'ko'],
  ] as const)('%j → %s', (locale, language) => {
    expect(languageOfLocale(locale)).toBe(language);
  });
});
