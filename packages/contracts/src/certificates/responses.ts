import { z } from 'zod';
import { TwoWayInfo } from './two-way-info.js';

/**
 * The common response object. First call: stepData (VENDOR_A) or twoWayInfo (VENDOR_B), URL null.
 * Second call: the pre-signed URL of the PDF, both states null.
 */
export const CertificateResponse = z.object({
  preSignedUrl: z.string().nullable(),
  stepData: z.string().nullable(),
  twoWayInfo: TwoWayInfo.nullable(),
});
export type CertificateResponse = z.infer<typeof CertificateResponse>;

export const ResidentCertificateV2Response = z.object({ residentCertificate: CertificateResponse });
export type ResidentCertificateV2Response = z.infer<typeof ResidentCertificateV2Response>;
export const ResidentAbstractV2Response = z.object({ residentAbstract: CertificateResponse });
export type ResidentAbstractV2Response = z.infer<typeof ResidentAbstractV2Response>;
export const FamilyRelationsV2Response = z.object({ familyRelationsCertificate: CertificateResponse });
export type FamilyRelationsV2Response = z.infer<typeof FamilyRelationsV2Response>;
