import { documentLabelKey } from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';
import type { CertificateDocument } from '@ferry/contracts';

/** After intro, the certificate being requested stays in view (신청 증명서: 주민등록표 등본). */
export function ChosenDocument({ document }: { document: CertificateDocument }) {
  const { t } = useCertificateTranslation();
  return <p className="chosen-document">{t('chosenDocument', { document: t(documentLabelKey(document)) })}</p>;
}
