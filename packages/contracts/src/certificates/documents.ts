import { z } from 'zod';

/** The three certificates, named after their endpoint path segment. */
export const CERTIFICATE_DOCUMENTS = ['resident-certificate', 'resident-abstract', 'family-relations'] as const;
export const CertificateDocument = z.enum(CERTIFICATE_DOCUMENTS);
export type CertificateDocument = z.infer<typeof CertificateDocument>;

/** The key the common response object is wrapped in, per document. */
export const RESPONSE_WRAPPER_KEY = {
  'resident-certificate': 'residentCertificate',
  'resident-abstract': 'residentAbstract',
  'family-relations': 'familyRelationsCertificate',
} as const satisfies Record<CertificateDocument, string>;
export type ResponseWrapperKey = (typeof RESPONSE_WRAPPER_KEY)[CertificateDocument];

export const certificatePath = (document: CertificateDocument): string => `/v2/user/certificate/${document}`;
