import { createInstance, type i18n } from 'i18next';
import {
  CATALOGUES,
  CERTIFICATE_NAMESPACE,
  type CertificateLanguage,
  DEFAULT_LANGUAGE,
  languageOr,
  SUPPORTED_LANGUAGES,
  type Translate,
} from './catalogue.js';

/** The catalogue as i18next resources; the language objects are the catalogue's own, not copies. */
export const certificateResources = Object.fromEntries(
  SUPPORTED_LANGUAGES.map((language) => [language, { [CERTIFICATE_NAMESPACE]: CATALOGUES[language] }]),
) as Record<CertificateLanguage, Record<typeof CERTIFICATE_NAMESPACE, object>>;

/**
 * A fresh i18next instance holding the funnel's catalogue, ready when this returns (the resources
 * are bundled, so nothing loads). Each client owns its instance; none touches i18next's global one,
 * so an app that already uses i18next keeps its own setup. Unknown languages fall back to Korean.
 */
export function createCertificateI18n(language: string = DEFAULT_LANGUAGE): i18n {
  const instance = createInstance();
  void instance.init({
    lng: languageOr(language),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    resources: certificateResources,
    ns: [CERTIFICATE_NAMESPACE],
    defaultNS: CERTIFICATE_NAMESPACE,
    // React escapes what it renders; escaping here too would show &amp; and friends.
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}

/** The typed `t` of an instance made by createCertificateI18n, in its current language. */
export function translatorOf(instance: i18n): Translate {
  const t = instance.getFixedT(null, CERTIFICATE_NAMESPACE) as unknown as (key: string, values?: object) => string;
  return (key, values) => t(key, values);
}
