import { TextInput, type TextInputProps, View } from 'react-native';
import { KeepAllText } from '../../text/keep-all-text.js';
import { FieldError } from './field-error.js';
import { funnelStyles } from './funnel-styles.js';

export interface LabeledInputProps extends Pick<TextInputProps, 'keyboardType' | 'secureTextEntry' | 'maxLength'> {
  label: string;
  value: string;
  onChangeText(value: string): void;
  error?: string;
  testID: string;
}

/** A text field with its visible label, which is also what the screen reader announces. */
export function LabeledInput({ label, value, onChangeText, error, testID, ...input }: LabeledInputProps) {
  return (
    <View style={[funnelStyles.group, { flex: 1 }]}>
      <KeepAllText style={funnelStyles.label}>{label}</KeepAllText>
      <TextInput
        {...input}
        accessibilityLabel={label}
        accessibilityHint={error}
        value={value}
        onChangeText={onChangeText}
        autoCorrect={false}
        autoComplete="off"
        importantForAutofill="no"
        style={[funnelStyles.input, error ? funnelStyles.inputInvalid : null]}
        testID={testID}
      />
      <FieldError message={error} testID={`${testID}-error`} />
    </View>
  );
}
