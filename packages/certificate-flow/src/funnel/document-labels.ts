import type { CertificateDocument } from '@ferry/contracts';

/** What the person chooses between on intro; the same words on web and native. */
export const DOCUMENT_LABELS: Record<CertificateDocument, string> = {
  'resident-certificate': 'Resident registration copy',
  'resident-abstract': 'Resident registration abstract',
  'family-relations': 'Family relations certificate',
};
