export { UpdatePolicy } from '@ferry/contracts/update-policy';
export { ImmediateOverlay, type ImmediateOverlayProps } from './components/immediate-overlay';
export {
  DEFAULT_NOTIFY_BANNER_LABELS,
  NotifyBanner,
  type NotifyBannerLabels,
  type NotifyBannerProps,
} from './components/notify-banner';
export { OtaUpdateBanner, type OtaUpdateBannerProps } from './components/ota-update-banner';
export { resolveUpdatePolicy } from './update-policy/resolve-update-policy';
export { createDismissedUpdates, type DismissedUpdates, sessionDismissals } from './update-policy/session-dismissals';
export {
  decideUpdatePrompt,
  type UpdatePrompt,
  type UpdatePromptDecision,
  type UpdatePromptInput,
} from './update-policy/update-prompt';
export {
  type OtaUpdatePolicyState,
  type UseOtaUpdatePolicyOptions,
  useOtaUpdatePolicy,
} from './update-policy/use-ota-update-policy';
