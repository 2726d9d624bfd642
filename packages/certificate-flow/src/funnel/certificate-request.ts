import type {
  CreateFamilyRelationsV2RequestInput,
  CreateResidentCertificateV2RequestInput,
  TwoWayInfo,
} from '@ferry/contracts';
import type { FunnelState } from './funnel-state.js';

/** One certificate call: which endpoint, and the body in that endpoint's field names. */
export type CertificateRequest =
  | { document: 'resident-certificate' | 'resident-abstract'; body: CreateResidentCertificateV2RequestInput }
  | { document: 'family-relations'; body: CreateFamilyRelationsV2RequestInput };

const nameOrNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/**
 * Builds the first call (no authentication state) or the second call (all first-call fields plus
 * the vendor's authentication state: stepData for VENDOR_A, twoWayInfo for VENDOR_B).
 */
export function certificateRequest(state: FunnelState, call: 'first' | 'second'): CertificateRequest {
  if (!state.identityEnc || !state.loginOrgCd) {
    throw new Error('certificateRequest needs the encrypted identity and a provider');
  }
  const stepData: string | null = call === 'second' && state.vendor === 'VENDOR_A' ? state.stepData : null;
  const twoWayInfo: TwoWayInfo | null = call === 'second' && state.vendor === 'VENDOR_B' ? state.twoWayInfo : null;
  const shared = {
    vendor: state.vendor,
    loginOrgCd: state.loginOrgCd,
    stepData,
    twoWayInfo,
    assignmentId: state.assignmentId,
  };
  if (state.document === 'family-relations') {
    return {
      document: state.document,
      body: {
        ...shared,
        rrn1: state.intro.front,
        rrn2Enc: state.identityEnc,
        fthrNm: nameOrNull(state.intro.fthrNm),
        mthrNm: nameOrNull(state.intro.mthrNm),
        sposNm: nameOrNull(state.intro.sposNm),
        childNm: nameOrNull(state.intro.childNm),
      },
    };
  }
  return {
    document: state.document,
    body: {
      ...shared,
      birthDate: state.intro.front,
      identityEnc: state.identityEnc,
      sido: state.intro.sido,
      sigg: state.intro.sigg,
    },
  };
}
