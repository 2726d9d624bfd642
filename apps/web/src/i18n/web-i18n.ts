import { type CertificateLanguage, createCertificateI18n, languageOr, translatorOf } from '@ferry/certificate-flow';

type CertificateI18n = ReturnType<typeof createCertificateI18n>;

/** Where the person's choice of language is kept between visits. */
export const LANGUAGE_STORAGE_KEY = 'ferry.certificate.language';

const storedLanguage = (): string | null => {
  try {
    return window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null; // storage blocked (private mode, policy): Korean, as for a first visit
  }
};

/** The page follows the language: `<html lang>` for screen readers and fonts, and the tab title. */
const applyToDocument = (instance: CertificateI18n, language: CertificateLanguage): void => {
  document.documentElement.lang = language;
  document.title = translatorOf(instance)('service.title');
};

/**
 * The web page's i18next instance over the shared catalogue: Korean unless the person chose
 * English before. A change of language is remembered and applied to the document.
 */
export function createWebI18n(): CertificateI18n {
  const instance = createCertificateI18n(languageOr(storedLanguage()));
  applyToDocument(instance, languageOr(instance.language));
  instance.on('languageChanged', (language) => {
    const chosen = languageOr(language);
    applyToDocument(instance, chosen);
    try {
      window.localStorage.setItem(LANGUAGE_STORAGE_KEY, chosen);
    } catch {
      // not remembered; the page still switches
    }
  });
  return instance;
}
