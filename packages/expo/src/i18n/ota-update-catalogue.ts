import type { Language } from '@ferry/contracts/languages';

/**
 * The words of the OTA update UI in Korean: the default language and the shape English follows, as
 * in the certificate funnel's catalogue (plain polite Korean in 해요체). A plain object rather than
 * i18next: the root entry of @ferry/expo must not need the funnel's optional peers, and four texts
 * need no interpolation or plurals.
 */
export const OTA_UPDATE_KO = {
  banner: {
    message: '새 버전이 준비되었어요.',
    action: '지금 업데이트',
    dismiss: '닫기',
  },
  overlay: {
    updating: '업데이트하고 있어요…',
  },
} as const;

type Shape<T> = { readonly [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
/** The Korean catalogue's shape with every leaf a string: what each language provides. */
export type OtaUpdateCatalogue = Shape<typeof OTA_UPDATE_KO>;

/** The English words: the alternative to Korean, with exactly the same keys. */
export const OTA_UPDATE_EN: OtaUpdateCatalogue = {
  banner: {
    message: 'A new version is ready.',
    action: 'Update now',
    dismiss: 'Dismiss',
  },
  overlay: {
    updating: 'Updating…',
  },
};

/** The OTA update UI's catalogue, one per language of @ferry/contracts (Korean first). */
export const OTA_UPDATE_CATALOGUES: Readonly<Record<Language, OtaUpdateCatalogue>> = {
  ko: OTA_UPDATE_KO,
  en: OTA_UPDATE_EN,
};
