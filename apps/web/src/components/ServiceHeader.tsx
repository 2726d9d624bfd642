import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';
import { LanguageSwitch } from './LanguageSwitch.js';

/** The service's name (the page's one h1) and the language switch, above every step. */
export function ServiceHeader() {
  const { t } = useCertificateTranslation();
  return (
    <header className="service-header">
      <h1 className="service-heading">{t('service.heading')}</h1>
      <LanguageSwitch />
    </header>
  );
}
