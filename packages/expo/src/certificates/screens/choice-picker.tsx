import { useState } from 'react';
import { Modal, Pressable, ScrollView, Text, View } from 'react-native';
import { ActionButton } from './action-button.js';
import { FieldError } from './field-error.js';
import { useFunnelText } from './funnel-copy.js';
import { COLORS, funnelStyles, MIN_TAP_TARGET } from './funnel-styles.js';

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
 * ones in both languages, as the vendors expect them.
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
      <Text style={funnelStyles.label}>{label}</Text>
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
        <Text style={[funnelStyles.body, value ? null : { color: COLORS.muted }]}>{value || placeholder}</Text>
      </Pressable>
      <FieldError message={error} testID={`${testID}-error`} />
      <Modal visible={open} animationType="slide" onRequestClose={() => setOpen(false)} transparent={false}>
        <View style={[funnelStyles.screen, { flex: 1 }]} testID={`${testID}-options`}>
          <Text accessibilityRole="header" style={funnelStyles.heading}>
            {label}
          </Text>
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
                  <Text style={funnelStyles.body}>{option}</Text>
                </Pressable>
              );
            })}
          </ScrollView>
          <ActionButton label={text.t('dialog.ok')} onPress={() => setOpen(false)} />
        </View>
      </Modal>
    </View>
  );
}
