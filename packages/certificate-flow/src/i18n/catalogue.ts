import {
  DEFAULT_LANGUAGE as DEFAULT,
  isLanguage,
  LANGUAGES,
  type Language,
  languageOr as orDefault,
} from '@ferry/contracts';
import { EN } from './catalogue-en.js';
import { KO } from './catalogue-ko.js';
import type { Catalogue, CatalogueKey } from './catalogue-shape.js';

export type { Catalogue, CatalogueKey } from './catalogue-shape.js';

/** Korean first: the languages of @ferry/contracts (`LANGUAGES`), which every Ferry catalogue has. */
export const SUPPORTED_LANGUAGES = LANGUAGES;
export type CertificateLanguage = Language;
export const DEFAULT_LANGUAGE: CertificateLanguage = DEFAULT;
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

export const isSupportedLanguage: (value: unknown) => value is CertificateLanguage = isLanguage;

/** The language to show for a stored or requested value: the value if supported, otherwise Korean. */
export const languageOr: (value: unknown) => CertificateLanguage = orDefault;

/** Renders a FunnelMessage (a validation error, say) with a Translate. */
export const messageText = (t: Translate, message: FunnelMessage): string => t(message.key, message.values);
