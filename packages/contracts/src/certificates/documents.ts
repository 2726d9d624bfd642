import { z } from 'zod';

/**
 * What a document's request asks for besides the person: the residence documents an address
 * (sido, sigg), the family-register documents family members' names.
 */
export type CertificateForm = 'resident' | 'family';

interface DocumentFacts {
  /** The key the common response object is wrapped in. */
  responseKey: string;
  form: CertificateForm;
  /** English title, as simulated PDFs and the API description name the document. */
  title: string;
}

/**
 * The certificates, defined once and in display order, named after their endpoint path segment.
 * Everything else derives from this table: the endpoints and their schemas, the clients' lists,
 * metrics labels; storage keeps the name without checking it (decisions: "Enumerations live in
 * contracts"). Adding one: docs/certificates.md, "Adding a document type".
 */
const DOCUMENTS = {
  'resident-certificate': {
    responseKey: 'residentCertificate',
    form: 'resident',
    title: 'Resident registration copy',
  },
  'resident-abstract': { responseKey: 'residentAbstract', form: 'resident', title: 'Resident registration abstract' },
  'family-relations': {
    responseKey: 'familyRelationsCertificate',
    form: 'family',
    title: 'Family relations certificate',
  },
} as const satisfies Record<string, DocumentFacts>;

export type CertificateDocument = keyof typeof DOCUMENTS;
export const CERTIFICATE_DOCUMENTS = Object.keys(DOCUMENTS) as readonly CertificateDocument[];
export const CertificateDocument = z.enum(CERTIFICATE_DOCUMENTS);

/** The key the common response object is wrapped in, per document. */
export type ResponseWrapperKey<D extends CertificateDocument = CertificateDocument> =
  (typeof DOCUMENTS)[D]['responseKey'];
export const RESPONSE_WRAPPER_KEY = Object.fromEntries(
  CERTIFICATE_DOCUMENTS.map((document) => [document, DOCUMENTS[document].responseKey]),
) as { readonly [D in CertificateDocument]: ResponseWrapperKey<D> };

/** The documents whose request takes this form. */
export type DocumentOfForm<F extends CertificateForm> = {
  [D in CertificateDocument]: (typeof DOCUMENTS)[D]['form'] extends F ? D : never;
}[CertificateDocument];

export const formOf = (document: CertificateDocument): CertificateForm => DOCUMENTS[document].form;
export const documentTitle = (document: CertificateDocument): string => DOCUMENTS[document].title;

export const certificatePath = (document: CertificateDocument): string => `/v2/user/certificate/${document}`;
