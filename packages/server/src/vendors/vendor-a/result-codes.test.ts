import { describe, expect, it } from 'vitest';
import { classifyVendorAError } from './result-codes.js';

describe('classifyVendorAError', () => {
  it.each([
    ['AUTH-WAIT', '', 'pending'],
    ['', '[AUTH-WAIT] 간편인증 승인 대기 중입니다', 'pending'],
    ['', '사용자 승인 대기 중', 'pending'],
    ['STEP-EXPIRED', '', 'expired'],
    ['STEP-USED', '', 'expired'],
    ['STEP-INVALID', '', 'state-invalid'],
    ['', '[LOGIN-999] 회원이 아닙니다', 'rejected'],
    ['LOGIN-002', '', 'rejected'],
    ['AUTH-CANCEL', '', 'rejected'],
    ['HYF-0002', '', 'unavailable'],
    ['HDM006', '', 'unavailable'],
    ['SOMETHING-NEW', 'unexpected', 'unavailable'],
    ['', 'no code at all', 'unavailable'],
  ])('errCd %j, errMsg %j → %s', (errCd, errMsg, kind) => {
    expect(classifyVendorAError(errCd, errMsg).kind).toBe(kind);
  });

  it('takes the code from the message when errCd is empty', () => {
    expect(classifyVendorAError('', '[LOGIN-109] wrong number')).toEqual({ kind: 'rejected', code: 'LOGIN-109' });
  });
});
