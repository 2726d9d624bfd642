import {
  CERTIFICATE_DOCUMENTS,
  CERTIFICATE_VENDORS,
  type CertificateVendor,
  CreateFamilyRelationsV2Request,
  CreateResidentCertificateV2Request,
  formOf,
  secondCallField,
  type TwoWayInfo,
} from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { createPureJsCipher } from '../../src/encryption/pure-js-cipher.js';
import { certificateRequest } from '../../src/funnel/certificate-request.js';
import { EMPTY_INTRO, type FunnelState, initialFunnelState } from '../../src/funnel/funnel-state.js';
import { TEST_AES_KEY } from '../support/node-cipher.js';

const identityEnc = await createPureJsCipher(TEST_AES_KEY).encrypt('1234567');
const TWO_WAY: TwoWayInfo = { jobIndex: 0, threadIndex: 1, jti: 'jti-1', twoWayTimestamp: 1700000000000 };

function confirmState(vendor: CertificateVendor, document: FunnelState['document']): FunnelState {
  return {
    ...initialFunnelState({ vendor, document, assignmentId: null }),
    step: 'confirm',
    intro: { ...EMPTY_INTRO, front: '900101', sido: '서울특별시', sigg: '강남구', mthrNm: ' 김영희 ' },
    identityEnc,
    loginOrgCd: 'provider_b',
    stepData: secondCallField(vendor) === 'stepData' ? 'opaque-step' : null,
    twoWayInfo: secondCallField(vendor) === 'twoWayInfo' ? TWO_WAY : null,
  };
}

const CASES = CERTIFICATE_VENDORS.flatMap((vendor) =>
  CERTIFICATE_DOCUMENTS.map((document) => ({
    vendor,
    document,
  })),
);

describe('certificate requests built from the form state', () => {
  it.each(CASES)('$document with $vendor: both calls satisfy the contract', ({ vendor, document }) => {
    const state = confirmState(vendor, document);
    const schema = formOf(document) === 'family' ? CreateFamilyRelationsV2Request : CreateResidentCertificateV2Request;
    for (const call of ['first', 'second'] as const) {
      const request = certificateRequest(state, call);
      expect(request.document).toBe(document);
      expect(schema.safeParse(request.body).success).toBe(true);
    }
  });

  it('sends no authentication state on the first call, and only the vendor’s own on the second', () => {
    const a = confirmState('VENDOR_A', 'resident-certificate');
    expect(certificateRequest(a, 'first').body).toMatchObject({ stepData: null, twoWayInfo: null });
    expect(certificateRequest(a, 'second').body).toMatchObject({ stepData: 'opaque-step', twoWayInfo: null });
    const b = confirmState('VENDOR_B', 'resident-certificate');
    expect(certificateRequest(b, 'second').body).toMatchObject({ stepData: null, twoWayInfo: TWO_WAY });
  });

  it('uses each endpoint’s field names and never the plain back part', () => {
    const resident = certificateRequest(confirmState('VENDOR_A', 'resident-abstract'), 'first').body;
    expect(resident).toMatchObject({ birthDate: '900101', identityEnc, sido: '서울특별시', sigg: '강남구' });
    const family = certificateRequest(confirmState('VENDOR_A', 'family-relations'), 'first').body;
    expect(family).toMatchObject({ rrn1: '900101', rrn2Enc: identityEnc, mthrNm: '김영희', fthrNm: null });
    expect(JSON.stringify([resident, family])).not.toContain('1234567');
  });
});
