import { I18nManager, NativeModules, Platform } from 'react-native';

const firstString = (value: unknown): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first : undefined;
};

/** Every read is guarded: a platform without the module, or a module that throws, says nothing. */
const attempt = (read: () => unknown): string | undefined => {
  try {
    return firstString(read());
  } catch {
    return undefined;
  }
};

interface SettingsManager {
  settings?: Record<string, unknown>;
  getConstants?(): { settings?: Record<string, unknown> };
}

/** iOS's user defaults as React Native's SettingsManager holds them (the same data as `Settings`). */
const iosSetting = (key: string): unknown => {
  const manager = NativeModules.SettingsManager as SettingsManager | undefined;
  return (manager?.settings ?? manager?.getConstants?.().settings)?.[key];
};

/** The browser's navigator under react-native-web (React Native's own globals declare none). */
const browserNavigator = () =>
  (globalThis as { navigator?: { languages?: readonly string[]; language?: string } }).navigator;

/**
 * The device's language as its platform reports it, read with React Native's core modules only (no
 * expo-localization): on iOS the preferred languages (`AppleLanguages`, which follow the per-app
 * language in Settings and, unlike NSLocale.currentLocale, are not narrowed to the localizations the
 * app bundle declares); on Android the configuration's locale (`I18nManager`, which follows Android
 * 13's per-app language); on the web the browser's languages; then the locale Intl started with.
 * Undefined when nothing can be read.
 */
export function deviceLocale(): string | undefined {
  const reported =
    Platform.OS === 'ios'
      ? attempt(() => iosSetting('AppleLanguages'))
      : Platform.OS === 'android'
        ? attempt(() => (I18nManager.getConstants() as { localeIdentifier?: unknown }).localeIdentifier)
        : attempt(() => browserNavigator()?.languages ?? browserNavigator()?.language);
  return reported ?? attempt(() => Intl.DateTimeFormat().resolvedOptions().locale);
}
