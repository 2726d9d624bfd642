/**
 * The simple-authentication providers in display order. The list lives in @ferry/certificate-flow
 * (CERTIFICATE_PROVIDERS), the one the web funnel renders too, so both show the same five, labels
 * (catalogue keys providerLabelKey(code)) and colours.
 */
export { CERTIFICATE_PROVIDERS } from '@ferry/certificate-flow';
