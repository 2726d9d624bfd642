import { createInstance, type i18n } from 'i18next';
import {
  CATALOGUES,
  CONSOLE_NAMESPACE,
  type ConsoleLanguage,
  DEFAULT_LANGUAGE,
  languageOr,
  SUPPORTED_LANGUAGES,
  type Translate,
} from './catalogue.js';
import { LANGUAGE_STORAGE_KEY } from './language-storage.js';

const storedLanguage = (): string | null => {
  try {
    return window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null; // storage blocked (private mode, policy): Korean, as for a first visit
  }
};

/** The catalogue as i18next resources; the language objects are the catalogue's own, not copies. */
const consoleResources = Object.fromEntries(
  SUPPORTED_LANGUAGES.map((language) => [language, { [CONSOLE_NAMESPACE]: CATALOGUES[language] }]),
) as unknown as Record<ConsoleLanguage, Record<typeof CONSOLE_NAMESPACE, object>>;

/**
 * A fresh i18next instance over the console's catalogue, ready when this returns (the resources
 * are bundled). Unknown languages fall back to Korean.
 */
export function createI18n(language: string = DEFAULT_LANGUAGE): i18n {
  const instance = createInstance();
  void instance.init({
    lng: languageOr(language),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    resources: consoleResources,
    ns: [CONSOLE_NAMESPACE],
    defaultNS: CONSOLE_NAMESPACE,
    // React escapes what it renders; escaping here too would show &amp; and friends.
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}

/** The typed `t` of an instance made by createI18n, in its current language. */
export function translatorOf(instance: i18n): Translate {
  const t = instance.getFixedT(null, CONSOLE_NAMESPACE) as unknown as (key: string, values?: object) => string;
  return (key, values) => t(key, values);
}

/** The page follows the language: `<html lang>` for screen readers and fonts, and the tab title. */
const applyToDocument = (instance: i18n, language: ConsoleLanguage): void => {
  document.documentElement.lang = language;
  document.title = translatorOf(instance)('app.title');
};

/**
 * The console's instance: Korean unless the operator chose English before. A change of language is
 * remembered (localStorage) and applied to the document.
 */
export function createConsoleI18n(): i18n {
  const instance = createI18n(languageOr(storedLanguage()));
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
