import { I18nManager, NativeModules, Platform } from 'react-native';
import { deviceLocale } from '../../src/i18n/device-locale';

/** Intl as started with `locale`, or an Intl that throws. */
const intlSays = (locale: string | Error) =>
  jest.spyOn(Intl, 'DateTimeFormat').mockImplementation((() => ({
    resolvedOptions: () => {
      if (locale instanceof Error) throw locale;
      return { locale };
    },
  })) as unknown as typeof Intl.DateTimeFormat);

const modules = NativeModules as Record<string, unknown>;

afterEach(() => {
  delete modules.SettingsManager;
  jest.restoreAllMocks();
});

describe('deviceLocale: what the platform says, then Intl', () => {
  it('iOS: the first preferred language (AppleLanguages), from the settings constants', () => {
    modules.SettingsManager = { settings: { AppleLanguages: ['ko-KR', 'en-KR'], AppleLocale: 'en_KR' } };
    intlSays('en-US');
    expect(deviceLocale()).toBe('ko-KR');
  });

  it('iOS, new architecture: the same settings through getConstants()', () => {
    modules.SettingsManager = { getConstants: () => ({ settings: { AppleLanguages: ['en-GB'] } }) };
    intlSays('ko-KR');
    expect(deviceLocale()).toBe('en-GB');
  });

  it.each([
    ['no SettingsManager', undefined],
    ['no AppleLanguages', { settings: {} }],
    ['an empty list', { settings: { AppleLanguages: [] } }],
    ['an empty string', { settings: { AppleLanguages: [''] } }],
    [
      'a module that throws',
      {
        getConstants: () => {
          throw new Error('not ready');
        },
      },
    ],
  ])('iOS with %s: Intl', (_case, manager) => {
    if (manager) modules.SettingsManager = manager;
    intlSays('ja-JP');
    expect(deviceLocale()).toBe('ja-JP');
  });

  it("Android: the configuration's locale (I18nManager)", () => {
    jest.replaceProperty(Platform, 'OS', 'android');
    jest.spyOn(I18nManager, 'getConstants').mockReturnValue({
      isRTL: false,
      doLeftAndRightSwapInRTL: true,
      localeIdentifier: 'ko_KR',
    } as ReturnType<typeof I18nManager.getConstants>);
    intlSays('en-US');
    expect(deviceLocale()).toBe('ko_KR');
  });

  it('Android without a locale identifier: Intl', () => {
    jest.replaceProperty(Platform, 'OS', 'android');
    intlSays('ko-KR');
    expect(deviceLocale()).toBe('ko-KR');
  });

  it('nothing to read anywhere: undefined', () => {
    intlSays(new Error('no Intl'));
    expect(deviceLocale()).toBeUndefined();
  });
});
