// @ferry/expo/certificates: the native side of the certificate funnel (separate entry so the update
// banner does not pull the funnel into apps that do not use it).
export {
  createCertificateApi,
  FUNNEL_STEPS,
  type FunnelAlert,
  type FunnelDependencies,
  type FunnelEntry,
  type FunnelEvent,
  type FunnelState,
  type FunnelStep,
} from '@ferry/certificate-flow';
export { DEFAULT_CERTIFICATE_VENDOR } from '@ferry/contracts';
export { CERTIFICATE_PROVIDERS } from './certificate-providers.js';
export {
  certificateAesKey,
  createNativeIdentityCipher,
  type NativeIdentityCipherOptions,
} from './native-identity-cipher.js';
export {
  type CertificateFunnel,
  nativeAlert,
  type ShowFunnelAlert,
  type UseCertificateFunnelOptions,
  useCertificateFunnel,
} from './use-certificate-funnel.js';
