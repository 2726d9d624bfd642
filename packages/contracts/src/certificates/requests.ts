import { z } from 'zod';
import { lineText } from '../text.js';
import type { CertificateForm } from './documents.js';
import { EncryptedResidentNumberBack, ResidentNumberFront } from './identity.js';
import { ProviderCode } from './providers.js';
import { StepData, TwoWayInfo } from './two-way-info.js';
import { CERTIFICATE_VENDOR_FACTS, SECOND_CALL_FIELDS, type SecondCallField, type VendorFacts } from './vendor.js';

// One-line text: no control characters (a NUL would fail PostgreSQL and corrupt logs and vendor bodies).
const placeName = lineText().trim().min(1, 'must not be empty').max(64);
const personName = lineText().trim().max(64);

export const FAMILY_NAME_FIELDS = ['fthrNm', 'mthrNm', 'sposNm', 'childNm'] as const;

type SecondCallState = { vendor: string } & { [F in SecondCallField]?: unknown };

/**
 * The request schemas of the certificate endpoints for a list of vendors: the built-in list (the
 * exports below), or the vendors a server's registry composes. A vendor's state travels in its own
 * second-call field only: the other field must be absent or null.
 */
export function certificateRequestSchemas<const V extends readonly VendorFacts[]>(vendors: V) {
  const fieldOf = new Map<string, SecondCallField>(vendors.map((vendor) => [vendor.id, vendor.secondCall]));
  const usersOf = (field: SecondCallField) =>
    vendors
      .filter((vendor) => vendor.secondCall === field)
      .map((vendor) => vendor.id)
      .join(', ') || 'no vendor';
  const checkVendorState = (value: SecondCallState, ctx: z.RefinementCtx) => {
    const own = fieldOf.get(value.vendor);
    for (const field of SECOND_CALL_FIELDS) {
      if (field !== own && value[field] != null) {
        ctx.addIssue({ code: 'custom', path: [field], message: `${field} is only used with ${usersOf(field)}` });
      }
    }
  };

  /**
   * Fields every certificate request shares. `preSignedUrl` is accepted and ignored because the
   * clients' form state carries it and may be posted as is; any other unknown field is rejected.
   */
  const common = {
    vendor: z.enum(vendors.map((vendor): V[number]['id'] => vendor.id)),
    loginOrgCd: ProviderCode,
    stepData: StepData.nullish(),
    twoWayInfo: TwoWayInfo.nullish(),
    assignmentId: z.uuid().nullish(),
    preSignedUrl: lineText().max(4096).nullish(),
  };

  /** The residence documents' form (e.g. POST /v2/user/certificate/resident-certificate). */
  const resident = z
    .object({
      ...common,
      birthDate: ResidentNumberFront,
      identityEnc: EncryptedResidentNumberBack,
      sido: placeName,
      sigg: placeName,
    })
    .strict()
    .superRefine(checkVendorState);

  /** The family-register documents' form (e.g. POST /v2/user/certificate/family-relations). */
  const family = z
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

  return { resident, family } satisfies Record<CertificateForm, z.ZodType>;
}

const BUILT_IN = certificateRequestSchemas(CERTIFICATE_VENDOR_FACTS);

/** Body of POST /v2/user/certificate/resident-certificate and /resident-abstract. */
export const CreateResidentCertificateV2Request = BUILT_IN.resident;
export type CreateResidentCertificateV2Request = z.infer<typeof CreateResidentCertificateV2Request>;
export type CreateResidentCertificateV2RequestInput = z.input<typeof CreateResidentCertificateV2Request>;

/** Body of POST /v2/user/certificate/family-relations. */
export const CreateFamilyRelationsV2Request = BUILT_IN.family;
export type CreateFamilyRelationsV2Request = z.infer<typeof CreateFamilyRelationsV2Request>;
export type CreateFamilyRelationsV2RequestInput = z.input<typeof CreateFamilyRelationsV2Request>;
