import { type ConsoleLanguage, SUPPORTED_LANGUAGES } from '../i18n/catalogue.js';
import { useT } from '../i18n/use-t.js';

/**
 * 한국어 / English, on every page. Each button names its language in that language (and says so
 * with `lang`), so an operator who cannot read the current one still finds theirs. Remembered.
 */
export function LanguageSwitch() {
  const { t, language, setLanguage } = useT();
  return (
    <fieldset className="language-switch">
      <legend className="visually-hidden">{t('language.label')}</legend>
      {SUPPORTED_LANGUAGES.map((option: ConsoleLanguage) => (
        <button
          key={option}
          type="button"
          className="small"
          lang={option}
          aria-pressed={language === option}
          onClick={() => setLanguage(option)}
        >
          {t(`language.${option}`)}
        </button>
      ))}
    </fieldset>
  );
}
