import { describe, expect, it } from 'vitest';
import {
  CreateFamilyRelationsV2Request,
  CreateResidentCertificateV2Request,
  isResidentNumberFrontDate,
  ResidentNumberFront,
} from '../src/index.js';

/**
 * The front part of a resident registration number is YYMMDD, a real date. The century is unknown
 * (19YY or 20YY), so 29 February counts when either is a leap year: YY divisible by 4.
 */
const rows: Array<[value: string, isDate: boolean, why: string]> = [
  ['880415', true, 'an ordinary date'],
  ['000101', true, 'the first day of 1900 / 2000'],
  ['991231', true, 'the last day of a year'],
  ['900131', true, '31 January'],
  ['900132', false, '32 January'],
  ['900228', true, '28 February'],
  ['000229', true, '29 February 2000 (1900 was no leap year, 2000 was)'],
  ['040229', true, '29 February 1904 / 2004'],
  ['880229', true, '29 February 1988'],
  ['960229', true, '29 February 1996'],
  ['010229', false, '29 February in neither 1901 nor 2001'],
  ['990229', false, '29 February in neither 1999 nor 2099'],
  ['020229', false, '29 February 1902 / 2002'],
  ['000230', false, '30 February'],
  ['040231', false, '31 February'],
  ['900331', true, '31 March'],
  ['900430', true, '30 April'],
  ['900431', false, '31 April'],
  ['900531', true, '31 May'],
  ['900631', false, '31 June'],
  ['900731', true, '31 July'],
  ['900831', true, '31 August'],
  ['900931', false, '31 September'],
  ['901031', true, '31 October'],
  ['901131', false, '31 November'],
  ['901231', true, '31 December'],
  ['900001', false, 'month 00'],
  ['901301', false, 'month 13'],
  ['909901', false, 'month 99'],
  ['900100', false, 'day 00'],
  ['900199', false, 'day 99'],
  ['000000', false, 'all zeros'],
  ['99999', false, 'five digits'],
  ['8804150', false, 'seven digits'],
  ['88o415', false, 'a letter'],
  ['８８０４１５', false, 'full-width digits'],
  ['', false, 'nothing'],
];

describe('isResidentNumberFrontDate', () => {
  it.each(rows)('%s → %s (%s)', (value, isDate) => {
    expect(isResidentNumberFrontDate(value)).toBe(isDate);
  });
});

describe('ResidentNumberFront', () => {
  it.each(rows)('%s → %s (%s), one issue at most, never the digits', (value, isDate) => {
    const result = ResidentNumberFront.safeParse(value);
    expect(result.success).toBe(isDate);
    if (!result.success) {
      expect(result.error.issues).toHaveLength(1);
      if (value.length > 0) expect(JSON.stringify(result.error.issues)).not.toContain(value);
    }
  });

  it('names birthDate and rrn1 in the requests', () => {
    const resident = CreateResidentCertificateV2Request.safeParse({
      vendor: 'VENDOR_A',
      loginOrgCd: 'provider_a',
      birthDate: '010229',
      identityEnc: Buffer.alloc(32).toString('base64'),
      sido: '서울특별시',
      sigg: '강남구',
    });
    expect(resident.success).toBe(false);
    expect(resident.error?.issues.map((issue) => issue.path)).toEqual([['birthDate']]);
    const family = CreateFamilyRelationsV2Request.safeParse({
      vendor: 'VENDOR_B',
      loginOrgCd: 'provider_a',
      rrn1: '900431',
      rrn2Enc: Buffer.alloc(32).toString('base64'),
      fthrNm: '홍길동',
    });
    expect(family.success).toBe(false);
    expect(family.error?.issues.map((issue) => issue.path)).toEqual([['rrn1']]);
  });
});
