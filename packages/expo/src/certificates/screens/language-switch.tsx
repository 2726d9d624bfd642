import { SUPPORTED_LANGUAGES } from '@ferry/certificate-flow';
import { Pressable, View } from 'react-native';
import { KeepAllText } from '../../text/keep-all-text.js';
import { useFunnelText } from './funnel-copy.js';
import { COLORS, funnelStyles, MIN_TAP_TARGET } from './funnel-styles.js';

/** 한국어 | English: each option is named in its own language, so anyone can find theirs. */
export function LanguageSwitch() {
  const text = useFunnelText();
  return (
    <View
      accessibilityRole="radiogroup"
      accessibilityLabel={text.t('language.label')}
      style={{ flexDirection: 'row', gap: 8, justifyContent: 'flex-end' }}
      testID="certificate-language"
    >
      {SUPPORTED_LANGUAGES.map((language) => {
        const checked = text.language === language;
        return (
          <Pressable
            key={language}
            accessibilityRole="radio"
            accessibilityLabel={text.t(`language.${language}`)}
            accessibilityLanguage={language}
            aria-checked={checked}
            onPress={() => text.setLanguage(language)}
            testID={`certificate-language-${language}`}
            style={({ pressed }) => [
              {
                minHeight: MIN_TAP_TARGET,
                minWidth: MIN_TAP_TARGET,
                paddingHorizontal: 12,
                justifyContent: 'center',
                borderRadius: 8,
                borderWidth: checked ? 2 : 1,
                borderColor: checked ? COLORS.primary : COLORS.border,
                backgroundColor: checked ? COLORS.selected : COLORS.surface,
              },
              pressed && funnelStyles.pressed,
            ]}
          >
            <KeepAllText style={funnelStyles.body}>{text.t(`language.${language}`)}</KeepAllText>
          </Pressable>
        );
      })}
    </View>
  );
}
