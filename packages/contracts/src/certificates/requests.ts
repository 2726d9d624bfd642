import { z } from 'zod';
import { lineText } from '../text.js';
import { EncryptedResidentNumberBack, ResidentNumberFront } from './identity.js';
import { ProviderCode } from './providers.js';
import { StepData, TwoWayInfo } from './two-way-info.js';
import { CertificateVendor } from './vendor.js';

// One-line text: no control characters (a NUL would fail PostgreSQL and corrupt logs and vendor bodies).
const placeName = lineText().trim().min(1, 'must not be empty').max(64);
const personName = lineText().trim().max(64);

/**
 * Fields every certificate request shares. `preSignedUrl` is accepted and ignored because the
 * clients' form state carries it and may be posted as is; any other unknown field is rejected.
 */
const common = {
  vendor: CertificateVendor,
  loginOrgCd: ProviderCode,
  stepData: StepData.nullish(),
  twoWayInfo: TwoWayInfo.nullish(),
  assignmentId: z.uuid().nullish(),
  preSignedUrl: lineText().max(4096).nullish(),
};

type VendorStateFields = { vendor: CertificateVendor; stepData?: string | null; twoWayInfo?: TwoWayInfo | null };

/** stepData belongs to VENDOR_A and twoWayInfo to VENDOR_B; never both, never the other vendor's. */
const checkVendorState = (value: VendorStateFields, ctx: z.RefinementCtx) => {
  if (value.vendor !== 'VENDOR_A' && value.stepData != null) {
    ctx.addIssue({ code: 'custom', path: ['stepData'], message: 'stepData is only used with VENDOR_A' });
  }
  if (value.vendor !== 'VENDOR_B' && value.twoWayInfo != null) {
    ctx.addIssue({ code: 'custom', path: ['twoWayInfo'], message: 'twoWayInfo is only used with VENDOR_B' });
  }
};

/** Body of POST /v2/user/certificate/resident-certificate and /resident-abstract. */
export const CreateResidentCertificateV2Request = z
  .object({
    ...common,
    birthDate: ResidentNumberFront,
    identityEnc: EncryptedResidentNumberBack,
    sido: placeName,
    sigg: placeName,
  })
  .strict()
  .superRefine(checkVendorState);
export type CreateResidentCertificateV2Request = z.infer<typeof CreateResidentCertificateV2Request>;
export type CreateResidentCertificateV2RequestInput = z.input<typeof CreateResidentCertificateV2Request>;

export const FAMILY_NAME_FIELDS = ['fthrNm', 'mthrNm', 'sposNm', 'childNm'] as const;

/** Body of POST /v2/user/certificate/family-relations. */
export const CreateFamilyRelationsV2Request = z
  .object({
    ...common,
    rrn1: ResidentNumberFront,
    rrn2Enc: EncryptedResidentNumberBack,
    fthrNm: personName.nullish(),
    mthrNm: personName.nullish(),
    sposNm: personName.nullish(),
    childNm: personName.nullish(),
  })
  .strict()
  .superRefine((value, ctx) => {
    checkVendorState(value, ctx);
    if (!FAMILY_NAME_FIELDS.some((field) => (value[field] ?? '') !== '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['fthrNm'],
        message: `at least one of ${FAMILY_NAME_FIELDS.join(', ')} is required`,
      });
    }
  });
export type CreateFamilyRelationsV2Request = z.infer<typeof CreateFamilyRelationsV2Request>;
export type CreateFamilyRelationsV2RequestInput = z.input<typeof CreateFamilyRelationsV2Request>;
