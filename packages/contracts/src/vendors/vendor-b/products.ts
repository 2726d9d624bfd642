import type { CertificateDocument } from '@ferry/contracts';

/**
 * VENDOR_B's product path per document. The two resident paths are the ones public clients use;
 * the family-relations path is assumed and must be checked against the vendor's guide.
 */
export const VENDOR_B_PRODUCTS: Readonly<Record<CertificateDocument, string>> = {
  'resident-certificate': '/v1/kr/public/mw/resident-registration-copy/issuance',
  'resident-abstract': '/v1/kr/public/mw/resident-registration-abstract/issuance',
  'family-relations': '/v1/kr/public/ck/family-relations-register/family-relations-certificate',
};

/** The public-sector organization code the products are filed with. */
export const VENDOR_B_ORGANIZATION = '0001';
