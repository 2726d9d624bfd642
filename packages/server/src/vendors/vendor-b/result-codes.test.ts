import { decodeUrlEncodedJson, encodeUrlEncodedJson } from '@ferry/contracts/vendors';
import { describe, expect, it } from 'vitest';
import { classifyVendorBCode } from './result-codes.js';

describe('classifyVendorBCode', () => {
  it.each([
    ['CF-03002', 'pending'],
    ['CF-12872', 'expired'],
    ['CF-12001', 'expired'],
    ['CF-00025', 'expired'],
    ['CF-03003', 'state-invalid'],
    ['CF-12102', 'rejected'],
    ['CF-12100', 'rejected'],
    ['CF-13000', 'rejected'],
    ['CF-12003', 'unavailable'],
    ['CF-01004', 'unavailable'],
    ['CF-99999', 'unavailable'],
  ])('%s → %s', (code, kind) => {
    expect(classifyVendorBCode(code)).toBe(kind);
  });
});

describe('URL-encoded JSON', () => {
  it('round-trips, including spaces sent as + and a literal +', () => {
    const value = { result: { code: 'CF-00000', message: '성공 a+b c' }, data: { n: 1 } };
    expect(decodeUrlEncodedJson(encodeUrlEncodedJson(value))).toEqual(value);
    expect(decodeUrlEncodedJson('%7B%22m%22%3A%22a+b%22%7D')).toEqual({ m: 'a b' });
  });

  it('takes raw JSON too', () => {
    expect(decodeUrlEncodedJson('{"a":1}')).toEqual({ a: 1 });
  });

  it('throws on garbage', () => {
    expect(() => decodeUrlEncodedJson('%7B%22result')).toThrow();
  });
});
