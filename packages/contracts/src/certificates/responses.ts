import { z } from 'zod';
import { type CertificateDocument, RESPONSE_WRAPPER_KEY, type ResponseWrapperKey } from './documents.js';
import { TwoWayInfo } from './two-way-info.js';

/**
 * The common response object. First call: the vendor's authentication state in its second-call
 * field (stepData or twoWayInfo, vendor.ts), URL null. Second call: the pre-signed URL of the PDF,
 * both states null.
 */
export const CertificateResponse = z.object({
  preSignedUrl: z.string().nullable(),
  stepData: z.string().nullable(),
  twoWayInfo: TwoWayInfo.nullable(),
});
export type CertificateResponse = z.infer<typeof CertificateResponse>;

/** A document endpoint's answer: the common response object under the document's wrapper key. */
export const certificateV2Response = <D extends CertificateDocument>(document: D) =>
  z.object({ [RESPONSE_WRAPPER_KEY[document]]: CertificateResponse } as {
    [K in ResponseWrapperKey<D>]: typeof CertificateResponse;
  });

export const ResidentCertificateV2Response = certificateV2Response('resident-certificate');
export type ResidentCertificateV2Response = z.infer<typeof ResidentCertificateV2Response>;
export const ResidentAbstractV2Response = certificateV2Response('resident-abstract');
export type ResidentAbstractV2Response = z.infer<typeof ResidentAbstractV2Response>;
export const FamilyRelationsV2Response = certificateV2Response('family-relations');
export type FamilyRelationsV2Response = z.infer<typeof FamilyRelationsV2Response>;
