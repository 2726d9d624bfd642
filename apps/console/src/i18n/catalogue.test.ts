import { describe, expect, it } from 'vitest';
import { CATALOGUES, DEFAULT_LANGUAGE, languageOr, SUPPORTED_LANGUAGES } from './catalogue.js';
import { createI18n, translatorOf } from './console-i18n.js';

/** Every leaf of a catalogue as [dotted key, text]. */
const leaves = (node: object, prefix = ''): Array<[string, unknown]> =>
  Object.entries(node).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
/** The `{{placeholders}}` and `<0>`-style component slots a message has. */
const slots = (text: string): string[] => [...text.matchAll(/\{\{(\w+)\}\}|<(\d+)>/g)].map((m) => m[0]).sort();

const koreanKeys = leaves(CATALOGUES.ko).map(([key]) => key);

describe('the console catalogue', () => {
  it('is Korean first, English second', () => {
    expect(SUPPORTED_LANGUAGES).toEqual(['ko', 'en']);
    expect(DEFAULT_LANGUAGE).toBe('ko');
    expect(createI18n().language).toBe('ko');
    expect(languageOr('fr')).toBe('ko');
    expect(languageOr('en')).toBe('en');
  });

  it.each(SUPPORTED_LANGUAGES)(
    '%s has every key, each a non-empty string with the same slots as Korean',
    (language) => {
      const entries = leaves(CATALOGUES[language]);
      expect(entries.map(([key]) => key).sort()).toEqual([...koreanKeys].sort());
      const korean = new Map(leaves(CATALOGUES.ko));
      for (const [key, text] of entries) {
        expect(typeof text, key).toBe('string');
        expect((text as string).trim(), key).not.toBe('');
        expect(slots(text as string), key).toEqual(slots(korean.get(key) as string));
      }
    },
  );

  it('interpolates values, leaving them unescaped for React to escape', () => {
    const en = translatorOf(createI18n('en'));
    const ko = translatorOf(createI18n('ko'));
    expect(en('reach.share', { devices: '1,240 devices' })).toBe(
      'About 1,240 devices will get this release on their next check.',
    );
    expect(ko('reach.share', { devices: '1,240대의 기기' })).toBe(
      '약 1,240대의 기기가 다음 확인 때 이 릴리스를 받아요.',
    );
    expect(en('tokens.newToken', { name: 'a & b', role: 'viewer' })).toBe('Token for a & b (viewer)');
  });
});
