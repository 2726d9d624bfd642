import { Pressable, StyleSheet, Text, View } from 'react-native';

export interface NotifyBannerLabels {
  message: string;
  action: string;
  dismiss: string;
}

export const DEFAULT_NOTIFY_BANNER_LABELS: NotifyBannerLabels = {
  message: 'A new version is ready.',
  action: 'Update now',
  dismiss: 'Dismiss',
};

export interface NotifyBannerProps {
  onApply(): void;
  onDismiss(): void;
  /** Distance from the top edge, e.g. `useSafeAreaInsets().top`, so the banner clears the status bar. */
  topInset?: number;
  labels?: Partial<NotifyBannerLabels>;
  disabled?: boolean;
}

/** The Notify policy's slim, full-width banner at the top: tap applies the update, ✕ hides it. */
export function NotifyBanner({ onApply, onDismiss, topInset = 0, labels, disabled = false }: NotifyBannerProps) {
  const text = { ...DEFAULT_NOTIFY_BANNER_LABELS, ...labels };
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
        <Text style={styles.message} numberOfLines={1}>
          {text.message}
        </Text>
        <Text style={styles.action}>{text.action}</Text>
      </Pressable>
      <Pressable
        style={styles.dismiss}
        onPress={onDismiss}
        hitSlop={12}
        accessibilityRole="button"
        accessibilityLabel={text.dismiss}
        testID="ferry-notify-banner-dismiss"
      >
        <Text style={styles.dismissGlyph}>✕</Text>
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
