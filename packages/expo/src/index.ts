export type { Language } from '@ferry/contracts/languages';
export { UpdatePolicy } from '@ferry/contracts/update-policy';
export { ImmediateOverlay, type ImmediateOverlayProps } from './components/immediate-overlay.js';
export {
  DEFAULT_NOTIFY_BANNER_LABELS,
  NotifyBanner,
  type NotifyBannerLabels,
  type NotifyBannerProps,
} from './components/notify-banner.js';
export { OtaUpdateBanner, type OtaUpdateBannerProps } from './components/ota-update-banner.js';
export { OTA_UPDATE_CATALOGUES, type OtaUpdateCatalogue } from './i18n/ota-update-catalogue.js';
export { otaUpdateLanguage } from './i18n/ota-update-language.js';
export { KeepAllText, type KeepAllTextProps } from './text/keep-all-text.js';
export { keepHangulWords } from './text/keep-hangul-words.js';
export { resolveUpdatePolicy } from './update-policy/resolve-update-policy.js';
export {
  createDismissedUpdates,
  type DismissedUpdates,
  sessionDismissals,
} from './update-policy/session-dismissals.js';
export {
  decideUpdatePrompt,
  type UpdatePrompt,
  type UpdatePromptDecision,
  type UpdatePromptInput,
} from './update-policy/update-prompt.js';
export {
  type OtaUpdatePolicyState,
  type UseOtaUpdatePolicyOptions,
  useOtaUpdatePolicy,
} from './update-policy/use-ota-update-policy.js';
