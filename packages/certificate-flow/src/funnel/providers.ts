import { PROVIDERS, type Provider, type ProviderCode, type ProviderKind } from '@ferry/contracts';
import type { CatalogueKey } from '../i18n/catalogue.js';

/**
 * The simple-authentication providers in display order: the one list the web and native funnels
 * render, so both show the same five with the same colours, and neither shows the provider the
 * original web client had commented out. Codes and colours come from @ferry/contracts; the words on
 * the buttons come from the catalogue (providerLabelKey).
 */
export const CERTIFICATE_PROVIDERS: readonly Provider[] = [...PROVIDERS].sort((a, b) => a.order - b.order);

/** The button's words, e.g. 메신저 앱 / Messenger app. */
export const providerLabelKey = (code: ProviderCode): CatalogueKey => `providers.${code}`;

/** The provider's neutral kind, e.g. 은행 인증서 / Bank certificate. */
export const providerKindKey = (kind: ProviderKind): CatalogueKey => `providerKinds.${kind}`;
