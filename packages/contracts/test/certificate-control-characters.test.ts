import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CreateAssignmentRequest,
  CreateFamilyRelationsV2Request,
  CreateResidentCertificateV2Request,
} from '../src/index.js';

/**
 * Every free text field of the certificate requests is one line (lineText): no C0 control
 * character at all, DEL allowed. A refusal names the field's path. The fields with a stricter
 * pattern (birthDate, rrn1, identityEnc, rrn2Enc, loginOrgCd, vendor, assignmentId) refuse them
 * through it.
 */
const CHARACTERS = { NUL: '\u0000', SOH: '\u0001', TAB: '\t', LF: '\n', CR: '\r', US: '\u001f', DEL: '\u007f' };
const ALLOWED = new Set(['DEL']);

const ENCRYPTED = Buffer.alloc(32).toString('base64');
const resident = (overrides: Record<string, unknown>) => ({
  vendor: 'VENDOR_A',
  loginOrgCd: 'provider_a',
  birthDate: '880415',
  identityEnc: ENCRYPTED,
  sido: '서울특별시',
  sigg: '강남구',
  ...overrides,
});
const family = (overrides: Record<string, unknown>) => ({
  vendor: 'VENDOR_B',
  loginOrgCd: 'provider_a',
  rrn1: '880415',
  rrn2Enc: ENCRYPTED,
  fthrNm: '홍길동',
  ...overrides,
});
const TWO_WAY = { jobIndex: 0, threadIndex: 0, jti: 'jti', twoWayTimestamp: 1 };

const fields: Array<[path: string, schema: z.ZodType, input: (text: string) => unknown]> = [
  ['sido', CreateResidentCertificateV2Request, (t) => resident({ sido: `서울${t}특별시` })],
  ['sigg', CreateResidentCertificateV2Request, (t) => resident({ sigg: `강남${t}구` })],
  ['preSignedUrl', CreateResidentCertificateV2Request, (t) => resident({ preSignedUrl: `https://x.test/${t}` })],
  ['stepData', CreateResidentCertificateV2Request, (t) => resident({ stepData: `step${t}data` })],
  [
    'twoWayInfo.jti',
    CreateResidentCertificateV2Request,
    (t) => resident({ vendor: 'VENDOR_B', twoWayInfo: { ...TWO_WAY, jti: `j${t}ti` } }),
  ],
  ['fthrNm', CreateFamilyRelationsV2Request, (t) => family({ fthrNm: `홍${t}길동` })],
  ['mthrNm', CreateFamilyRelationsV2Request, (t) => family({ mthrNm: `김${t}영희` })],
  ['sposNm', CreateFamilyRelationsV2Request, (t) => family({ sposNm: `이${t}` })],
  ['childNm', CreateFamilyRelationsV2Request, (t) => family({ childNm: `홍${t}길순` })],
  ['preSignedUrl', CreateFamilyRelationsV2Request, (t) => family({ preSignedUrl: `${t}` })],
  ['twoWayInfo.jti', CreateFamilyRelationsV2Request, (t) => family({ twoWayInfo: { ...TWO_WAY, jti: `jti${t}` } })],
  ['userId', CreateAssignmentRequest, (t) => ({ userId: `alice${t}`, certificateVendor: 'VENDOR_A' })],
  ['title', CreateAssignmentRequest, (t) => ({ userId: 'alice', certificateVendor: 'VENDOR_A', title: `Sub${t}mit` })],
];

describe.each(fields)('%s', (path, schema, input) => {
  it('takes plain text', () => {
    expect(schema.safeParse(input('')).success).toBe(true);
  });
  it.each(Object.entries(CHARACTERS))('%s', (name, character) => {
    const result = schema.safeParse(input(character));
    expect(result.success).toBe(ALLOWED.has(name));
    if (!result.success) expect(result.error.issues.map((issue) => issue.path.join('.'))).toContain(path);
  });
});
