import { EN } from './catalogue-en.js';
import { KO } from './catalogue-ko.js';
import type { Catalogue, CatalogueKey } from './catalogue-shape.js';

export type { Catalogue, CatalogueKey } from './catalogue-shape.js';

/** Korean first: the service issues Korean civil documents to Korean residents. */
export const SUPPORTED_LANGUAGES = ['ko', 'en'] as const;
export type CertificateLanguage = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: CertificateLanguage = 'ko';
/** Lower-case alias, for code that reads better with it. */
export const supportedLanguages = SUPPORTED_LANGUAGES;

/** The i18next namespace the funnel's messages live in. */
export const CERTIFICATE_NAMESPACE = 'certificate';

/** Values for a message's `{{placeholders}}`. */
export type MessageValues = Readonly<Record<string, string | number>>;

/** A message not yet put into words: a key and its values, rendered by the client in its language. */
export interface FunnelMessage {
  key: CatalogueKey;
  values?: MessageValues;
}

/** Renders a key in the current language (an i18next `t` bound to the funnel's namespace). */
export type Translate = (key: CatalogueKey, values?: MessageValues) => string;

/**
 * The one catalogue both clients read. Mutable on purpose only in the sense that i18next reads it
 * by reference: the web and native funnels render from this very object.
 */
export const CATALOGUES: Readonly<Record<CertificateLanguage, Catalogue>> = { ko: KO, en: EN };

export const isSupportedLanguage = (value: unknown): value is CertificateLanguage =>
  typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);

/** The language to show for a stored or requested value: the value if supported, otherwise Korean. */
export const languageOr = (value: unknown): CertificateLanguage =>
  isSupportedLanguage(value) ? value : DEFAULT_LANGUAGE;

/** Renders a FunnelMessage (a validation error, say) with a Translate. */
export const messageText = (t: Translate, message: FunnelMessage): string => t(message.key, message.values);
