import type { Language } from '@ferry/contracts/languages';
import { ActivityIndicator, StyleSheet, View } from 'react-native';
import { otaUpdateTexts } from '../i18n/ota-update-language.js';
import { KeepAllText } from '../text/keep-all-text.js';

export interface ImmediateOverlayProps {
  /** Replaces the catalogue's text ("업데이트하고 있어요…" / "Updating…"). */
  label?: string;
  /** `ko` or `en`; by default the device's language (Korean on a Korean device, else English). */
  language?: Language;
}

/** The Immediate policy's full-screen overlay, shown while the app reloads into the new update. */
export function ImmediateOverlay({ label, language }: ImmediateOverlayProps) {
  const text = label ?? otaUpdateTexts(language).overlay.updating;
  return (
    <View
      style={styles.overlay}
      testID="ferry-immediate-overlay"
      accessibilityViewIsModal
      accessibilityLiveRegion="polite"
      accessibilityLabel={text}
    >
      {/* The words say what is happening; the spinner adds nothing a screen reader should name. */}
      <ActivityIndicator size="large" color="#ffffff" aria-hidden />
      <KeepAllText style={styles.label}>{text}</KeepAllText>
    </View>
  );
}

const styles = StyleSheet.create({
  overlay: {
    position: 'absolute',
    top: 0,
    right: 0,
    bottom: 0,
    left: 0,
    zIndex: 1001,
    elevation: 9,
    alignItems: 'center',
    justifyContent: 'center',
    gap: 16,
    paddingHorizontal: 24,
    backgroundColor: 'rgba(17, 24, 39, 0.92)',
  },
  label: { color: '#ffffff', fontSize: 16, textAlign: 'center' },
});
