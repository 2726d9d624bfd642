import { StyleSheet } from 'react-native';

/** Apple's and Google's minimum touch target (44 pt / 48 dp): every pressable is at least this tall. */
export const MIN_TAP_TARGET = 48;

export const COLORS = {
  text: '#191919',
  muted: '#4A4A4A',
  border: '#767676',
  primary: '#1A56DB',
  onPrimary: '#FFFFFF',
  error: '#B3261E',
  surface: '#FFFFFF',
  selected: '#E8EEFC',
} as const;

export const funnelStyles = StyleSheet.create({
  screen: { padding: 16, gap: 16 },
  heading: { fontSize: 22, fontWeight: '700', color: COLORS.text },
  subheading: { fontSize: 17, fontWeight: '600', color: COLORS.text },
  body: { fontSize: 16, lineHeight: 22, color: COLORS.text },
  muted: { fontSize: 14, lineHeight: 20, color: COLORS.muted },
  group: { gap: 8 },
  label: { fontSize: 15, fontWeight: '600', color: COLORS.text },
  input: {
    minHeight: MIN_TAP_TARGET,
    borderWidth: 1,
    borderColor: COLORS.border,
    borderRadius: 8,
    paddingHorizontal: 12,
    fontSize: 17,
    color: COLORS.text,
    backgroundColor: COLORS.surface,
  },
  inputInvalid: { borderColor: COLORS.error, borderWidth: 2 },
  fieldError: { fontSize: 14, lineHeight: 20, color: COLORS.error },
  button: {
    minHeight: MIN_TAP_TARGET,
    borderRadius: 8,
    paddingHorizontal: 16,
    paddingVertical: 12,
    alignItems: 'center',
    justifyContent: 'center',
    borderWidth: 1,
    borderColor: COLORS.border,
    backgroundColor: COLORS.surface,
  },
  buttonPrimary: { backgroundColor: COLORS.primary, borderColor: COLORS.primary },
  buttonText: { fontSize: 17, fontWeight: '600', color: COLORS.text },
  buttonTextPrimary: { color: COLORS.onPrimary },
  pressed: { opacity: 0.7 },
  disabled: { opacity: 0.5 },
  actions: { gap: 12 },
});
