import { PROVIDERS, type Provider } from '@ferry/contracts';

/**
 * The simple-authentication providers in display order, straight from @ferry/contracts: the web
 * funnel renders the same list, so both show the same five, labels and colours, and neither shows
 * the provider the original web client had commented out.
 */
export const CERTIFICATE_PROVIDERS: readonly Provider[] = [...PROVIDERS].sort((a, b) => a.order - b.order);
