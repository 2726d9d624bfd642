import type { Language } from '@ferry/contracts/languages';
import type { OtaUpdatePolicyState } from '../update-policy/use-ota-update-policy.js';
import { ImmediateOverlay } from './immediate-overlay.js';
import { NotifyBanner, type NotifyBannerLabels } from './notify-banner.js';

export interface OtaUpdateBannerProps {
  /** The state from useOtaUpdatePolicy(). */
  update: OtaUpdatePolicyState;
  topInset?: number;
  /** `ko` or `en` for both the banner and the overlay; by default the device's language. */
  language?: Language;
  /** Replaces any of the banner's texts (message, action, dismiss). */
  labels?: Partial<NotifyBannerLabels>;
  /** Replaces the overlay's text. */
  immediateLabel?: string;
}

/**
 * Renders what the update policy asks for: the Notify banner, the Immediate overlay, or nothing
 * (Default). Place it last in the root layout so it draws above the screens.
 */
export function OtaUpdateBanner({ update, topInset, language, labels, immediateLabel }: OtaUpdateBannerProps) {
  if (update.prompt === 'immediate') return <ImmediateOverlay label={immediateLabel} language={language} />;
  if (update.prompt !== 'notify') return null;
  return (
    <NotifyBanner
      onApply={() => void update.apply()}
      onDismiss={update.dismiss}
      topInset={topInset}
      labels={labels}
      language={language}
      disabled={update.isApplying}
    />
  );
}
