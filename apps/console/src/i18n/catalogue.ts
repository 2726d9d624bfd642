import { EN } from './catalogue-en.js';
import { KO } from './catalogue-ko.js';
import type { Catalogue, CatalogueKey } from './catalogue-shape.js';

export type { Catalogue, CatalogueKey } from './catalogue-shape.js';

/** Korean first, English second, as the certificate funnel: Ferry's operators are Korean teams first. */
export const SUPPORTED_LANGUAGES = ['ko', 'en'] as const;
export type ConsoleLanguage = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: ConsoleLanguage = 'ko';

/** The i18next namespace the console's messages live in. */
export const CONSOLE_NAMESPACE = 'console';

/** Values for a message's `{{placeholders}}`. */
export type MessageValues = Readonly<Record<string, string | number>>;

/** Renders a key in the current language (an i18next `t` bound to the console's namespace). */
export type Translate = (key: CatalogueKey, values?: MessageValues) => string;

/** A message not yet put into words: what the live stream announces, rendered in the language shown. */
export interface Message {
  key: CatalogueKey;
  values?: MessageValues;
}

export const CATALOGUES: Readonly<Record<ConsoleLanguage, Catalogue>> = { ko: KO, en: EN };

export const isSupportedLanguage = (value: unknown): value is ConsoleLanguage =>
  typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);

/** The language to show for a stored or requested value: the value if supported, otherwise Korean. */
export const languageOr = (value: unknown): ConsoleLanguage => (isSupportedLanguage(value) ? value : DEFAULT_LANGUAGE);

/** The locale numbers and times are written in for each language (Intl). */
export const LOCALES: Readonly<Record<ConsoleLanguage, string>> = { ko: 'ko-KR', en: 'en-GB' };
