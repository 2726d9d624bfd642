// @ferry/expo/certificates: the native side of the certificate funnel (separate entry so the update
// banner does not pull the funnel into apps that do not use it).
export {
  type CertificateLanguage,
  createCertificateApi,
  DEFAULT_LANGUAGE,
  FUNNEL_STEPS,
  type FunnelAlert,
  type FunnelDependencies,
  type FunnelEntry,
  type FunnelEntryPoint,
  type FunnelEvent,
  type FunnelState,
  type FunnelStep,
  resolveFunnelEntry,
  SUPPORTED_LANGUAGES,
} from '@ferry/certificate-flow';
export { DEFAULT_CERTIFICATE_VENDOR } from '@ferry/contracts';
export { CERTIFICATE_PROVIDERS } from './certificate-providers.js';
export {
  certificateAesKey,
  createNativeIdentityCipher,
  type NativeIdentityCipherOptions,
} from './native-identity-cipher.js';
export {
  CERTIFICATE_STEP_SCREENS,
  CertificateFunnel,
  type CertificateFunnelProps,
} from './screens/certificate-funnel.js';
export { CertificateFunnelI18n, type CertificateFunnelI18nProps } from './screens/certificate-funnel-i18n.js';
export {
  type CertificateServer,
  type CertificateServerOptions,
  useCertificateDependencies,
} from './screens/certificate-server.js';
export { ConfirmScreen } from './screens/confirm-screen.js';
export { DoneScreen } from './screens/done-screen.js';
export { IntroScreen } from './screens/intro-screen.js';
export { SimpleVerificationScreen } from './screens/simple-verification-screen.js';
export type { CertificateStepProps } from './screens/step-props.js';
export {
  type CertificateFunnelController,
  nativeAlert,
  type ShowFunnelAlert,
  type UseCertificateFunnelOptions,
  useCertificateFunnel,
} from './use-certificate-funnel.js';
