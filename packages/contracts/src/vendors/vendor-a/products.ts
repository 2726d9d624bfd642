import type { CertificateDocument } from '@ferry/contracts';

/**
 * VENDOR_A's API id per document (`POST /<id>`). The abstract's id is the one seen in public
 * clients; the other two are assumed neighbours and must be checked against the vendor's contract.
 */
export const VENDOR_A_PRODUCTS: Readonly<Record<CertificateDocument, string>> = {
  'resident-certificate': 'in0005000215',
  'resident-abstract': 'in0005000216',
  'family-relations': 'in0085000101',
};

export const documentOfVendorAProduct = (id: string): CertificateDocument | undefined =>
  (Object.entries(VENDOR_A_PRODUCTS) as Array<[CertificateDocument, string]>).find(
    ([, product]) => product === id,
  )?.[0];
