import { useState } from 'react';
import { Modal, Platform, Pressable, ScrollView, View } from 'react-native';
import { KeepAllText } from '../../text/keep-all-text.js';
import { ActionButton } from './action-button.js';
import { FieldError } from './field-error.js';
import { useFunnelText } from './funnel-copy.js';
import { COLORS, funnelStyles, MIN_TAP_TARGET } from './funnel-styles.js';

/**
 * Where the list's dialog role and name go. react-native-web's Modal renders the dialog element
 * itself and passes its props on to it, so there the Modal takes the name (a second dialog inside it
 * would be a nameless one). A native Modal is a window of its own that takes no accessibility props,
 * so there its content is the dialog, and VoiceOver stays inside it (accessibilityViewIsModal).
 */
const DIALOG_ON_CONTENT = Platform.OS !== 'web';

export interface ChoicePickerProps {
  label: string;
  placeholder: string;
  value: string;
  options: readonly string[];
  onChange(value: string): void;
  disabled?: boolean;
  error?: string;
  testID: string;
}

/**
 * A select field without a native module: a button that shows the current choice and opens a
 * full-screen list (React Native has no built-in picker since 0.60). The list's rows are radio
 * buttons, so a screen reader says which one is chosen; the region names are the official Korean
 * ones in both languages, as the vendors expect them. The list is a dialog named after the field
 * (시·도, 시·군·구), closed by its 닫기 / Close button, the system back button or Escape on the web.
 */
export function ChoicePicker({
  label,
  placeholder,
  value,
  options,
  onChange,
  disabled,
  error,
  testID,
}: ChoicePickerProps) {
  const text = useFunnelText();
  const [open, setOpen] = useState(false);
  const choose = (option: string) => {
    setOpen(false);
    onChange(option);
  };
  return (
    <View style={funnelStyles.group}>
      <KeepAllText style={funnelStyles.label}>{label}</KeepAllText>
      <Pressable
        accessibilityRole="button"
        accessibilityLabel={`${label}: ${value || placeholder}`}
        accessibilityHint={error}
        aria-disabled={Boolean(disabled)}
        aria-expanded={open}
        disabled={disabled}
        onPress={() => setOpen(true)}
        testID={testID}
        style={({ pressed }) => [
          funnelStyles.input,
          { justifyContent: 'center' },
          error ? funnelStyles.inputInvalid : null,
          pressed && funnelStyles.pressed,
          disabled && funnelStyles.disabled,
        ]}
      >
        <KeepAllText style={[funnelStyles.body, value ? null : { color: COLORS.muted }]}>
          {value || placeholder}
        </KeepAllText>
      </Pressable>
      <FieldError message={error} testID={`${testID}-error`} />
      <Modal
        visible={open}
        animationType="slide"
        onRequestClose={() => setOpen(false)}
        transparent={false}
        aria-label={label}
      >
        <View
          style={[funnelStyles.screen, { flex: 1 }]}
          testID={`${testID}-options`}
          {...(DIALOG_ON_CONTENT
            ? ({ role: 'dialog', 'aria-label': label, accessibilityViewIsModal: true } as const)
            : null)}
        >
          <KeepAllText accessibilityRole="header" style={funnelStyles.heading}>
            {label}
          </KeepAllText>
          <ScrollView accessibilityRole="radiogroup" accessibilityLabel={label} contentContainerStyle={{ gap: 4 }}>
            {options.map((option) => {
              const selected = option === value;
              return (
                <Pressable
                  key={option}
                  accessibilityRole="radio"
                  accessibilityLabel={option}
                  aria-checked={selected}
                  onPress={() => choose(option)}
                  style={({ pressed }) => [
                    {
                      minHeight: MIN_TAP_TARGET,
                      justifyContent: 'center',
                      paddingHorizontal: 12,
                      borderRadius: 8,
                      backgroundColor: selected ? COLORS.selected : COLORS.surface,
                    },
                    pressed && funnelStyles.pressed,
                  ]}
                >
                  <KeepAllText style={funnelStyles.body}>{option}</KeepAllText>
                </Pressable>
              );
            })}
          </ScrollView>
          <ActionButton label={text.t('dialog.close')} onPress={() => setOpen(false)} testID={`${testID}-close`} />
        </View>
      </Modal>
    </View>
  );
}
