import {
  BACK_DIGITS,
  digitsOnly,
  FRONT_DIGITS,
  type IntroField,
  needsAddress,
  SIDO_NAMES,
  siggOf,
} from '@ferry/certificate-flow';
import { CERTIFICATE_DOCUMENTS } from '@ferry/contracts';
import { Pressable, View } from 'react-native';
import { KeepAllText } from '../../text/keep-all-text.js';
import { ActionButton } from './action-button.js';
import { ChoicePicker } from './choice-picker.js';
import { useFunnelText } from './funnel-copy.js';
import { COLORS, funnelStyles, MIN_TAP_TARGET } from './funnel-styles.js';
import { LabeledInput } from './labeled-input.js';
import { StepHeading } from './step-heading.js';
import type { CertificateStepProps } from './step-props.js';

const FAMILY_FIELDS = ['fthrNm', 'mthrNm', 'sposNm', 'childNm'] as const;

/**
 * Intro: the document, the resident registration number (6 plain digits, 7 masked digits that the
 * funnel encrypts and wipes when the person presses Next), then the registered address or the
 * family names (at least one), as the web funnel asks for them.
 */
export function IntroScreen({ state, dispatch }: CertificateStepProps) {
  const text = useFunnelText();
  const { intro, fieldErrors } = state;
  const busy = state.pending !== null;
  const change = (field: IntroField, maxDigits?: number) => (value: string) =>
    dispatch({ type: 'fieldChanged', field, value: maxDigits ? digitsOnly(value, maxDigits) : value });
  const error = (field: IntroField) => {
    const message = fieldErrors[field];
    return message ? text.message(message) : undefined;
  };

  return (
    <View style={funnelStyles.screen} testID="certificate-intro">
      <StepHeading>{text.t('intro.heading')}</StepHeading>

      <View
        accessibilityRole="radiogroup"
        accessibilityLabel={text.t('intro.documentLegend')}
        style={funnelStyles.group}
        testID="certificate-documents"
      >
        <KeepAllText style={funnelStyles.subheading}>{text.t('intro.documentLegend')}</KeepAllText>
        {CERTIFICATE_DOCUMENTS.map((document) => {
          const checked = state.document === document;
          return (
            <Pressable
              key={document}
              accessibilityRole="radio"
              accessibilityLabel={text.document(document)}
              aria-checked={checked}
              onPress={() => dispatch({ type: 'documentChosen', document })}
              testID={`certificate-document-${document}`}
              style={({ pressed }) => [
                {
                  minHeight: MIN_TAP_TARGET,
                  flexDirection: 'row',
                  alignItems: 'center',
                  gap: 12,
                  paddingHorizontal: 12,
                  borderRadius: 8,
                  borderWidth: checked ? 2 : 1,
                  borderColor: checked ? COLORS.primary : COLORS.border,
                  backgroundColor: checked ? COLORS.selected : COLORS.surface,
                },
                pressed && funnelStyles.pressed,
              ]}
            >
              <View
                style={{
                  width: 20,
                  height: 20,
                  borderRadius: 10,
                  borderWidth: 2,
                  borderColor: checked ? COLORS.primary : COLORS.border,
                  alignItems: 'center',
                  justifyContent: 'center',
                }}
              >
                {checked ? (
                  <View style={{ width: 10, height: 10, borderRadius: 5, backgroundColor: COLORS.primary }} />
                ) : null}
              </View>
              <KeepAllText style={funnelStyles.body}>{text.document(document)}</KeepAllText>
            </Pressable>
          );
        })}
      </View>

      <View style={funnelStyles.group}>
        <KeepAllText style={funnelStyles.subheading}>{text.t('intro.residentNumberLegend')}</KeepAllText>
        <View style={{ flexDirection: 'row', gap: 8, alignItems: 'flex-start' }}>
          <LabeledInput
            label={text.t('intro.front')}
            value={intro.front}
            onChangeText={change('front', FRONT_DIGITS)}
            keyboardType="number-pad"
            maxLength={FRONT_DIGITS}
            error={error('front')}
            testID="certificate-rrn-front"
          />
          <LabeledInput
            label={text.t('intro.back')}
            value={intro.back}
            onChangeText={change('back', BACK_DIGITS)}
            keyboardType="number-pad"
            maxLength={BACK_DIGITS}
            secureTextEntry
            error={error('back')}
            testID="certificate-rrn-back"
          />
        </View>
      </View>

      {needsAddress(state.document) ? (
        <View style={funnelStyles.group}>
          <KeepAllText style={funnelStyles.subheading}>{text.t('intro.addressLegend')}</KeepAllText>
          <ChoicePicker
            label={text.t('intro.sido')}
            placeholder={text.t('intro.sidoPlaceholder')}
            value={intro.sido}
            options={SIDO_NAMES}
            onChange={change('sido')}
            error={error('sido')}
            testID="certificate-sido"
          />
          <ChoicePicker
            label={text.t('intro.sigg')}
            placeholder={text.t(intro.sido === '' ? 'intro.siggNeedsSido' : 'intro.siggPlaceholder')}
            value={intro.sigg}
            options={siggOf(intro.sido)}
            onChange={change('sigg')}
            disabled={intro.sido === ''}
            error={error('sigg')}
            testID="certificate-sigg"
          />
        </View>
      ) : (
        <View style={funnelStyles.group}>
          <KeepAllText style={funnelStyles.subheading}>{text.t('intro.familyLegend')}</KeepAllText>
          {FAMILY_FIELDS.map((field) => (
            <LabeledInput
              key={field}
              label={text.t(`intro.family.${field}`)}
              value={intro[field]}
              onChangeText={change(field)}
              maxLength={64}
              error={error(field)}
              testID={`certificate-${field}`}
            />
          ))}
        </View>
      )}

      <ActionButton
        primary
        label={text.t('intro.next')}
        disabled={busy}
        onPress={() => dispatch({ type: 'introSubmitted' })}
        testID="certificate-next"
      />
    </View>
  );
}
