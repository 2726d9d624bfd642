import { type Language, languageOfLocale } from '@ferry/contracts/languages';
import { deviceLocale } from './device-locale.js';
import { OTA_UPDATE_CATALOGUES, type OtaUpdateCatalogue } from './ota-update-catalogue.js';

/**
 * The language of the OTA update UI: the app's when it passes one (its own language setting),
 * otherwise the device's. Either way `languageOfLocale` of @ferry/contracts decides, so a value
 * from plain JavaScript such as `ko-KR` or `ja` is read as a locale: Korean for Korean, English for
 * any other language, Korean when nothing can be read.
 */
export const otaUpdateLanguage = (language?: Language): Language => languageOfLocale(language ?? deviceLocale());

/** The OTA update UI's words in that language. */
export const otaUpdateTexts = (language?: Language): OtaUpdateCatalogue =>
  OTA_UPDATE_CATALOGUES[otaUpdateLanguage(language)];
