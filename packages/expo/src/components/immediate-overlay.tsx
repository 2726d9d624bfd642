import { ActivityIndicator, StyleSheet, Text, View } from 'react-native';

export interface ImmediateOverlayProps {
  label?: string;
}

/** The Immediate policy's full-screen overlay, shown while the app reloads into the new update. */
export function ImmediateOverlay({ label = 'Updating…' }: ImmediateOverlayProps) {
  return (
    <View
      style={styles.overlay}
      testID="ferry-immediate-overlay"
      accessibilityViewIsModal
      accessibilityLiveRegion="polite"
      accessibilityLabel={label}
    >
      <ActivityIndicator size="large" color="#ffffff" />
      <Text style={styles.label}>{label}</Text>
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
    backgroundColor: 'rgba(17, 24, 39, 0.92)',
  },
  label: { color: '#ffffff', fontSize: 16 },
});
