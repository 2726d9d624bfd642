import { describe, expect, it } from 'vitest';
import { EMPTY_INTRO, type IntroInput } from '../../src/funnel/funnel-state.js';
import { validateIntro } from '../../src/funnel/intro-validation.js';
import type { FunnelMessage } from '../../src/i18n/catalogue.js';

const resident: IntroInput = { ...EMPTY_INTRO, front: '900101', back: '1234567', sido: '서울특별시', sigg: '강남구' };
const family: IntroInput = { ...EMPTY_INTRO, front: '900101', back: '1234567', mthrNm: '김영희' };

describe('intro validation', () => {
  it('accepts complete residential and family details', () => {
    expect(validateIntro('resident-certificate', resident)).toEqual({});
    expect(validateIntro('resident-abstract', resident)).toEqual({});
    expect(validateIntro('family-relations', family)).toEqual({});
  });

  it.each<[string, Partial<IntroInput>, string, FunnelMessage]>([
    ['front empty', { front: '' }, 'front', { key: 'validation.front.missing' }],
    ['front too short', { front: '90010' }, 'front', { key: 'validation.front.missing' }],
    ['front with a letter', { front: '9001a1' }, 'front', { key: 'validation.front.missing' }],
    ['front month 13', { front: '901301' }, 'front', { key: 'validation.front.notADate' }],
    ['front day 32', { front: '900132' }, 'front', { key: 'validation.front.notADate' }],
    ['front 31 April', { front: '900431' }, 'front', { key: 'validation.front.notADate' }],
    [
      'front 29 February of a year that is never a leap year',
      { front: '010229' },
      'front',
      { key: 'validation.front.notADate' },
    ],
    ['back empty', { back: '' }, 'back', { key: 'validation.back', values: { count: 0 } }],
    ['back too short', { back: '123456' }, 'back', { key: 'validation.back', values: { count: 6 } }],
    ['back too long', { back: '12345678' }, 'back', { key: 'validation.back', values: { count: 8 } }],
    ['back with a space', { back: '123 567' }, 'back', { key: 'validation.back', values: { count: 7 } }],
    ['no province', { sido: '', sigg: '' }, 'sido', { key: 'validation.sido' }],
    ['unknown province', { sido: 'Atlantis', sigg: '강남구' }, 'sido', { key: 'validation.sido' }],
    ['no district', { sigg: '' }, 'sigg', { key: 'validation.sigg' }],
    ['district of another province', { sigg: '해운대구' }, 'sigg', { key: 'validation.sigg' }],
  ])('flags %s on the residential documents', (_case, change, field, message) => {
    const errors = validateIntro('resident-certificate', { ...resident, ...change });
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field as keyof IntroInput]).toEqual(message);
  });

  it('accepts 29 February when 19YY or 20YY is a leap year (the century is in the back part)', () => {
    for (const front of ['000229', '040229', '960229']) {
      expect(validateIntro('resident-certificate', { ...resident, front })).toEqual({});
    }
  });

  it('requires at least one family name, and blank names do not count', () => {
    const none = { ...family, mthrNm: '   ' };
    expect(validateIntro('family-relations', none)).toEqual({
      fthrNm: { key: 'validation.familyRequired' },
    });
    for (const field of ['fthrNm', 'mthrNm', 'sposNm', 'childNm'] as const) {
      expect(validateIntro('family-relations', { ...none, [field]: '이름' })).toEqual({});
    }
  });

  it('does not ask family relations for an address, nor the residential documents for names', () => {
    expect(validateIntro('family-relations', { ...family, sido: '', sigg: '' })).toEqual({});
    expect(validateIntro('resident-certificate', { ...resident, fthrNm: '' })).toEqual({});
  });

  it('limits a family name to 64 characters', () => {
    expect(validateIntro('family-relations', { ...family, sposNm: 'a'.repeat(65) })).toEqual({
      sposNm: { key: 'validation.nameTooLong', values: { max: 64 } },
    });
  });
});
