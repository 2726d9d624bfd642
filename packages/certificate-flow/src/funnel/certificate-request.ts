import {
  type CreateFamilyRelationsV2RequestInput,
  type CreateResidentCertificateV2RequestInput,
  type DocumentOfForm,
  formOf,
  secondCallField,
} from '@ferry/contracts';
import type { FunnelState } from './funnel-state.js';

/** One certificate call: which endpoint, and the body in the field names of that document's form. */
export type CertificateRequest =
  | { document: DocumentOfForm<'resident'>; body: CreateResidentCertificateV2RequestInput }
  | { document: DocumentOfForm<'family'>; body: CreateFamilyRelationsV2RequestInput };

const nameOrNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/**
 * Builds the first call (no authentication state) or the second call (all first-call fields plus
 * the vendor's authentication state, in its second-call field: stepData or twoWayInfo).
 */
export function certificateRequest(state: FunnelState, call: 'first' | 'second'): CertificateRequest {
  if (!state.identityEnc || !state.loginOrgCd) {
    throw new Error('certificateRequest needs the encrypted identity and a provider');
  }
  const field = call === 'second' ? secondCallField(state.vendor) : undefined;
  const stepData = field === 'stepData' ? state.stepData : null;
  const twoWayInfo = field === 'twoWayInfo' ? state.twoWayInfo : null;
  const shared = {
    vendor: state.vendor,
    loginOrgCd: state.loginOrgCd,
    stepData,
    twoWayInfo,
    assignmentId: state.assignmentId,
  };
  if (formOf(state.document) === 'family') {
    return {
      document: state.document as DocumentOfForm<'family'>,
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
    document: state.document as DocumentOfForm<'resident'>,
    body: {
      ...shared,
      birthDate: state.intro.front,
      identityEnc: state.identityEnc,
      sido: state.intro.sido,
      sigg: state.intro.sigg,
    },
  };
}
