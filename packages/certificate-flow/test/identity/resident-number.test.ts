import { describe, expect, it } from 'vitest';
import { digitEntry, type FrontProblem, frontProblem } from '../../src/identity/resident-number.js';

// Which message the front part's field shows: the date itself is the contracts' rule
// (packages/contracts/test/resident-number-front.test.ts holds its whole table).
const FRONT: Array<[value: string, problem: FrontProblem | null, why: string]> = [
  ['', 'missing', 'nothing typed'],
  ['9', 'missing', 'one digit'],
  ['90010', 'missing', 'five digits'],
  ['9001a1', 'missing', 'a letter among six characters'],
  ['900101', null, 'a date'],
  ['000229', null, '29 February 2000'],
  ['901301', 'notADate', 'month 13'],
  ['010229', 'notADate', '29 February in neither 1901 nor 2001'],
  ['900431', 'notADate', '31 April'],
  ['900100', 'notADate', 'day 00'],
  ['000000', 'notADate', 'all zeros'],
];

describe('frontProblem', () => {
  it.each(FRONT)('%j → %s (%s)', (value, problem) => {
    expect(frontProblem(value)).toBe(problem);
  });
});

describe('digitEntry', () => {
  it.each<[typed: string, max: number, value: string, refused: boolean]>([
    ['9001', 6, '9001', false],
    ['9001a', 6, '9001', true],
    ['９００１', 6, '', true],
    ['900101-1234567', 6, '900101', true],
    ['9001011', 6, '900101', false],
    ['', 7, '', false],
    ['12 34', 7, '1234', true],
  ])('%j (at most %i) keeps %j, refused something: %s', (typed, max, value, refused) => {
    expect(digitEntry(typed, max)).toEqual({ value, refused });
  });
});
