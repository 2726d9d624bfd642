import type { CertificateDocument } from '@ferry/contracts';
import type { CatalogueKey } from '../i18n/catalogue.js';

/** What the person chooses between on intro (주민등록표 등본, …): the same words on web and native. */
export const documentLabelKey = (document: CertificateDocument): CatalogueKey => `documents.${document}`;
