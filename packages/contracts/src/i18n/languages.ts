// No zod here: `@ferry/contracts/languages` is what the app SDK bundles for its OTA words, next to
// `@ferry/contracts/update-policy`; an app should not carry a validation library for two strings.

/**
 * The languages Ferry's user-facing text comes in, defined once: Korean first (the certificate
 * service issues Korean civil documents to Korean residents, and the app SDK speaks to them), English
 * second. Every catalogue (the certificate funnel's, the OTA banner's) has exactly these languages.
 */
export const LANGUAGES = ['ko', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'ko';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The language to show for a stored or requested value: the value if it is one, otherwise Korean. */
export const languageOr = (value: unknown): Language => (isLanguage(value) ? value : DEFAULT_LANGUAGE);

/**
 * The language for a device's locale (a BCP 47 tag or a platform identifier: `ko-KR`, `ko_KR`,
 * `ko-Kore-KR`, `en-US`, `ja_JP`): Korean when its language is Korean, English for any other
 * language, since English is the one alternative every catalogue has. A locale that cannot be read
 * (missing, empty, not a tag) gives Korean, the default: it says nothing about the person.
 */
export function languageOfLocale(locale: unknown): Language {
  if (typeof locale !== 'string') return DEFAULT_LANGUAGE;
  const primary = /^([A-Za-z]{2,8})(?:[-_]|$)/.exec(locale.trim())?.[1]?.toLowerCase();
  if (primary === undefined) return DEFAULT_LANGUAGE;
  return primary === 'ko' || primary === 'kor' ? 'ko' : 'en';
}
