import type { Language } from '@ferry/contracts/languages';
import { Pressable, StyleSheet, View } from 'react-native';
import { OTA_UPDATE_EN, type OtaUpdateCatalogue } from '../i18n/ota-update-catalogue.js';
import { otaUpdateTexts } from '../i18n/ota-update-language.js';
import { KeepAllText } from '../text/keep-all-text.js';

/** The banner's three texts: the sentence, the action, and the ✕ button's accessible name. */
export type NotifyBannerLabels = { -readonly [K in keyof OtaUpdateCatalogue['banner']]: string };

/** @deprecated The English texts only; the banner now speaks the device's language (`OTA_UPDATE_CATALOGUES`). */
export const DEFAULT_NOTIFY_BANNER_LABELS: NotifyBannerLabels = { ...OTA_UPDATE_EN.banner };

export interface NotifyBannerProps {
  onApply(): void;
  onDismiss(): void;
  /** Distance from the top edge, e.g. `useSafeAreaInsets().top`, so the banner clears the status bar. */
  topInset?: number;
  /** Replaces any of the catalogue's texts, e.g. with the app's own translation. */
  labels?: Partial<NotifyBannerLabels>;
  /** `ko` or `en`; by default the device's language (Korean on a Korean device, else English). */
  language?: Language;
  disabled?: boolean;
}

/** The Notify policy's slim, full-width banner at the top: tap applies the update, ✕ hides it. */
export function NotifyBanner({
  onApply,
  onDismiss,
  topInset = 0,
  labels,
  language,
  disabled = false,
}: NotifyBannerProps) {
  const catalogue = otaUpdateTexts(language).banner;
  // A label the app leaves out, or passes as undefined, keeps the catalogue's text.
  const text = {
    message: labels?.message ?? catalogue.message,
    action: labels?.action ?? catalogue.action,
    dismiss: labels?.dismiss ?? catalogue.dismiss,
  };
  return (
    <View style={[styles.banner, { paddingTop: topInset }]} testID="ferry-notify-banner" accessibilityRole="alert">
      <Pressable
        style={styles.body}
        onPress={onApply}
        disabled={disabled}
        accessibilityRole="button"
        accessibilityLabel={`${text.message} ${text.action}`}
        accessibilityState={{ disabled }}
        testID="ferry-notify-banner-apply"
      >
        <KeepAllText style={styles.message} numberOfLines={1}>
          {text.message}
        </KeepAllText>
        <KeepAllText style={styles.action}>{text.action}</KeepAllText>
      </Pressable>
      <Pressable
        style={styles.dismiss}
        onPress={onDismiss}
        hitSlop={12}
        accessibilityRole="button"
        accessibilityLabel={text.dismiss}
        testID="ferry-notify-banner-dismiss"
      >
        <KeepAllText style={styles.dismissGlyph}>✕</KeepAllText>
      </Pressable>
    </View>
  );
}

const styles = StyleSheet.create({
  banner: {
    position: 'absolute',
    top: 0,
    left: 0,
    right: 0,
    zIndex: 1000,
    elevation: 8,
    flexDirection: 'row',
    alignItems: 'center',
    backgroundColor: '#1f2937',
  },
  body: {
    flex: 1,
    flexDirection: 'row',
    alignItems: 'center',
    minHeight: 44,
    paddingHorizontal: 16,
    gap: 12,
  },
  message: { flex: 1, color: '#ffffff', fontSize: 14 },
  action: { color: '#93c5fd', fontSize: 14, fontWeight: '600' },
  dismiss: { minHeight: 44, minWidth: 44, alignItems: 'center', justifyContent: 'center' },
  dismissGlyph: { color: '#d1d5db', fontSize: 16 },
});
