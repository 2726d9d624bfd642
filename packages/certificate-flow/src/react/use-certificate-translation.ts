import { useTranslation } from 'react-i18next';
import { CERTIFICATE_NAMESPACE, type CertificateLanguage, languageOr, type Translate } from '../i18n/catalogue.js';

export interface CertificateTranslation {
  /** Renders a catalogue key in the current language; components re-render when it changes. */
  t: Translate;
  language: CertificateLanguage;
  setLanguage: (language: CertificateLanguage) => void;
}

/**
 * react-i18next's useTranslation for the funnel's namespace, typed with the catalogue's keys. The
 * app puts an instance from createCertificateI18n in an <I18nextProvider>; web and native read the
 * same catalogue through it. (A separate entry point, so `./react` needs no react-i18next.)
 */
export function useCertificateTranslation(): CertificateTranslation {
  const { t, i18n } = useTranslation(CERTIFICATE_NAMESPACE);
  const loose = t as unknown as (key: string, values?: object) => string;
  return {
    t: (key, values) => loose(key, values),
    language: languageOr(i18n.resolvedLanguage ?? i18n.language),
    setLanguage: (language) => void i18n.changeLanguage(language),
  };
}
