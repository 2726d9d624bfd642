import { useTranslation } from 'react-i18next';
import { bytes, count, devices, localTime, updatePolicy } from '../format.js';
import { CONSOLE_NAMESPACE, type ConsoleLanguage, LOCALES, languageOr, type Translate } from './catalogue.js';

export interface ConsoleTranslation {
  /** Renders a catalogue key in the current language; components re-render when it changes. */
  t: Translate;
  language: ConsoleLanguage;
  setLanguage: (language: ConsoleLanguage) => void;
  /** The format helpers, in the current language and its locale. */
  count: (value: number) => string;
  devices: (value: number) => string;
  time: (iso: string) => string;
  bytes: (size: number | null) => string;
  policy: (policy: number | null) => string;
}

/** react-i18next's useTranslation for the console's namespace, typed with the catalogue's keys. */
export function useT(): ConsoleTranslation {
  const { t: raw, i18n } = useTranslation(CONSOLE_NAMESPACE);
  const loose = raw as unknown as (key: string, values?: object) => string;
  const t: Translate = (key, values) => loose(key, values);
  const language = languageOr(i18n.resolvedLanguage ?? i18n.language);
  const locale = LOCALES[language];
  return {
    t,
    language,
    setLanguage: (next) => void i18n.changeLanguage(next),
    count: (value) => count(value, locale),
    devices: (value) => devices(t, value, locale),
    time: (iso) => localTime(iso, locale),
    bytes: (size) => bytes(size, t),
    policy: (policy) => updatePolicy(t, policy),
  };
}
