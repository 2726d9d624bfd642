import { type CertificateLanguage, SUPPORTED_LANGUAGES } from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';

/**
 * 한국어 / English, always visible. Each button names its language in that language (and says so
 * with `lang`), so a person who cannot read the current one still finds theirs.
 */
export function LanguageSwitch() {
  const { t, language, setLanguage } = useCertificateTranslation();
  return (
    <fieldset className="language-switch">
      <legend className="visually-hidden">{t('language.label')}</legend>
      {SUPPORTED_LANGUAGES.map((option: CertificateLanguage) => (
        <button
          key={option}
          type="button"
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
