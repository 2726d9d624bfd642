import { act, fireEvent, render, screen } from '@testing-library/react-native';
import { ActivityIndicator, StyleSheet, Text, View } from 'react-native';
import {
  createDismissedUpdates,
  type DismissedUpdates,
  ImmediateOverlay,
  type Language,
  NotifyBanner,
  OTA_UPDATE_CATALOGUES,
  OtaUpdateBanner,
  type OtaUpdateBannerProps,
  useOtaUpdatePolicy,
} from '../../src';
import { checking, downloaded, downloading, idle, resetUpdatesMock, updatesMock } from './expo-updates-mock';

jest.mock('expo-updates', () => jest.requireActual('./expo-updates-mock').expoUpdatesModule, { virtual: true });
// The device's language, as the platform would report it; English unless a test says otherwise.
const mockDevice: { locale: string | undefined } = { locale: 'en-US' };
jest.mock('../../src/i18n/device-locale', () => ({ deviceLocale: () => mockDevice.locale }));

const NOTIFY = 2;
const IMMEDIATE = 1;
const DEFAULT = 3;
const FIRST = '11111111-1111-4111-8111-111111111111';
const NEWER = '22222222-2222-4222-8222-222222222222';

/** A root layout as an app writes it: the hook plus the banner, nothing else. */
function RootLayout(props: { dismissals?: DismissedUpdates; onReloadError?: (error: unknown) => void }) {
  const update = useOtaUpdatePolicy(props);
  return (
    <View>
      <Text>Home screen</Text>
      <OtaUpdateBanner update={update} />
    </View>
  );
}

/** The same layout with translated labels and a status-bar inset. */
function Translated() {
  const update = useOtaUpdatePolicy({ dismissals: createDismissedUpdates() });
  return (
    <OtaUpdateBanner
      update={update}
      topInset={24}
      labels={{ message: '새 버전이 준비되었습니다', action: '업데이트', dismiss: '닫기' }}
    />
  );
}

const banner = () => screen.queryByTestId('ferry-notify-banner');
const overlay = () => screen.queryByTestId('ferry-immediate-overlay');
// Async act: lets the reload promise settle inside act, as the native event loop would.
const push = (state: typeof updatesMock.state) => act(async () => updatesMock.push(state));

beforeEach(() => {
  mockDevice.locale = 'en-US';
  resetUpdatesMock();
  jest.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('Notify (2): the banner', () => {
  it('appears only once the download has completed', async () => {
    render(<RootLayout dismissals={createDismissedUpdates()} />);
    expect(banner()).toBeNull();
    await push(checking());
    expect(banner()).toBeNull();
    await push(downloading(FIRST, NOTIFY));
    expect(banner()).toBeNull();
    await push(downloaded(FIRST, NOTIFY));
    expect(banner()).not.toBeNull();
    expect(screen.getByText('A new version is ready.')).toBeTruthy();
    expect(overlay()).toBeNull();
    expect(updatesMock.reloadAsync).not.toHaveBeenCalled();
  });

  it('reloads into the update when tapped', async () => {
    updatesMock.state = downloaded(FIRST, NOTIFY);
    render(<RootLayout dismissals={createDismissedUpdates()} />);
    await act(async () => fireEvent.press(screen.getByRole('button', { name: /Update now/ })));
    expect(updatesMock.reloadAsync).toHaveBeenCalledTimes(1);
  });

  it('ignores a second tap while the reload is running', async () => {
    let finish: () => void = () => {};
    updatesMock.reloadAsync.mockImplementation(() => new Promise<void>((resolve) => (finish = resolve)));
    updatesMock.state = downloaded(FIRST, NOTIFY);
    render(<RootLayout dismissals={createDismissedUpdates()} />);
    await act(async () => fireEvent.press(screen.getByTestId('ferry-notify-banner-apply')));
    await act(async () => fireEvent.press(screen.getByTestId('ferry-notify-banner-apply')));
    expect(updatesMock.reloadAsync).toHaveBeenCalledTimes(1);
    await act(async () => finish());
  });

  it('stays on screen and reports the error when the reload fails', async () => {
    const onReloadError = jest.fn();
    updatesMock.reloadAsync.mockRejectedValue(new Error('no runtime'));
    updatesMock.state = downloaded(FIRST, NOTIFY);
    render(<RootLayout dismissals={createDismissedUpdates()} onReloadError={onReloadError} />);
    await act(async () => fireEvent.press(screen.getByTestId('ferry-notify-banner-apply')));
    expect(onReloadError).toHaveBeenCalledWith(expect.objectContaining({ message: 'no runtime' }));
    expect(banner()).not.toBeNull();
  });

  it('is hidden for that update id once dismissed, without reloading', async () => {
    updatesMock.state = downloaded(FIRST, NOTIFY);
    render(<RootLayout dismissals={createDismissedUpdates()} />);
    fireEvent.press(screen.getByRole('button', { name: 'Dismiss' }));
    expect(banner()).toBeNull();
    await push({ ...downloaded(FIRST, NOTIFY) });
    expect(banner()).toBeNull();
    expect(updatesMock.reloadAsync).not.toHaveBeenCalled();
  });

  it('shows again for a newer update id after a dismissal', async () => {
    updatesMock.state = downloaded(FIRST, NOTIFY);
    render(<RootLayout dismissals={createDismissedUpdates()} />);
    fireEvent.press(screen.getByTestId('ferry-notify-banner-dismiss'));
    expect(banner()).toBeNull();
    await push(downloading(NEWER, NOTIFY));
    expect(banner()).toBeNull();
    await push(downloaded(NEWER, NOTIFY));
    expect(banner()).not.toBeNull();
  });

  it('remembers the dismissal for the whole session: remounting the layout keeps it hidden', () => {
    const session = createDismissedUpdates();
    updatesMock.state = downloaded(FIRST, NOTIFY);
    const first = render(<RootLayout dismissals={session} />);
    fireEvent.press(screen.getByTestId('ferry-notify-banner-dismiss'));
    first.unmount();
    render(<RootLayout dismissals={session} />);
    expect(banner()).toBeNull();
  });

  it('forgets the dismissal in a new session (after a reload or cold launch)', () => {
    updatesMock.state = downloaded(FIRST, NOTIFY);
    const first = render(<RootLayout dismissals={createDismissedUpdates()} />);
    fireEvent.press(screen.getByTestId('ferry-notify-banner-dismiss'));
    first.unmount();
    render(<RootLayout dismissals={createDismissedUpdates()} />);
    expect(banner()).not.toBeNull();
  });

  it('uses module memory by default: every hook instance in the session shares the dismissal', () => {
    const id = '33333333-3333-4333-8333-333333333333';
    updatesMock.state = downloaded(id, NOTIFY);
    render(
      <>
        <RootLayout />
        <RootLayout />
      </>,
    );
    expect(screen.getAllByTestId('ferry-notify-banner')).toHaveLength(2);
    fireEvent.press(screen.getAllByTestId('ferry-notify-banner-dismiss')[0]!);
    expect(banner()).toBeNull();
  });
});

describe('banner presentation', () => {
  it('is a full-width bar pinned to the top, below the given inset, with translatable labels', async () => {
    updatesMock.state = downloaded(FIRST, NOTIFY);
    render(<Translated />);
    expect(screen.getByTestId('ferry-notify-banner')).toHaveStyle({
      position: 'absolute',
      top: 0,
      left: 0,
      right: 0,
      paddingTop: 24,
    });
    expect(screen.getByText('새 버전이 준비되었습니다')).toBeTruthy();
    expect(screen.getByRole('button', { name: '닫기' })).toBeTruthy();
    await act(async () => fireEvent.press(screen.getByRole('button', { name: /업데이트/ })));
    expect(updatesMock.reloadAsync).toHaveBeenCalledTimes(1);
  });
});

describe('Immediate (1): overlay and reload', () => {
  it('does nothing before the download completes, then shows the overlay and reloads once', async () => {
    let overlayWhenReloading = false;
    updatesMock.reloadAsync.mockImplementation(() => {
      overlayWhenReloading = overlay() !== null;
      return Promise.resolve();
    });
    render(<RootLayout dismissals={createDismissedUpdates()} />);
    await push(downloading(FIRST, IMMEDIATE));
    expect(overlay()).toBeNull();
    expect(updatesMock.reloadAsync).not.toHaveBeenCalled();
    await push(downloaded(FIRST, IMMEDIATE));
    expect(overlay()).not.toBeNull();
    expect(banner()).toBeNull();
    expect(updatesMock.reloadAsync).toHaveBeenCalledTimes(1);
    expect(overlayWhenReloading).toBe(true);
    await push({ ...downloaded(FIRST, IMMEDIATE) });
    expect(updatesMock.reloadAsync).toHaveBeenCalledTimes(1);
  });

  it('falls back to the next cold launch when the reload fails', async () => {
    const onReloadError = jest.fn();
    updatesMock.reloadAsync.mockRejectedValue(new Error('reload refused'));
    render(<RootLayout dismissals={createDismissedUpdates()} onReloadError={onReloadError} />);
    await act(async () => updatesMock.push(downloaded(FIRST, IMMEDIATE)));
    expect(onReloadError).toHaveBeenCalledTimes(1);
    expect(overlay()).toBeNull();
    expect(banner()).toBeNull();
  });
});

describe('Default (3), null and unknown policies: silent', () => {
  it.each([
    ['Default (3)', DEFAULT],
    ['no policy in the manifest', undefined],
    ['null policy', null],
    ['unknown policy 7', 7],
    ['string policy', '2'],
  ])('%s never shows UI and never reloads', async (_case, policy) => {
    render(<RootLayout dismissals={createDismissedUpdates()} />);
    for (const state of [idle(), checking(), downloading(FIRST, policy), downloaded(FIRST, policy)]) {
      await push(state);
      expect(banner()).toBeNull();
      expect(overlay()).toBeNull();
    }
    expect(screen.getByText('Home screen')).toBeTruthy();
    expect(updatesMock.reloadAsync).not.toHaveBeenCalled();
  });
});

describe('only release builds with updates enabled read the policy', () => {
  it.each([
    ['Notify', NOTIFY],
    ['Immediate', IMMEDIATE],
  ])('%s is ignored when updates are disabled (development build, Expo Go)', (_case, policy) => {
    updatesMock.isEnabled = false;
    updatesMock.state = downloaded(FIRST, policy);
    render(<RootLayout dismissals={createDismissedUpdates()} />);
    expect(banner()).toBeNull();
    expect(overlay()).toBeNull();
    expect(updatesMock.reloadAsync).not.toHaveBeenCalled();
  });

  it('a rollback directive (no update id, no manifest) shows nothing', () => {
    updatesMock.state = {
      ...idle(),
      isUpdatePending: true,
      downloadedUpdate: { type: 'rollback', updateId: undefined, createdAt: new Date(0), manifest: undefined },
    };
    render(<RootLayout dismissals={createDismissedUpdates()} />);
    expect(banner()).toBeNull();
    expect(overlay()).toBeNull();
  });
});

/** The root layout with the banner's optional props, for the words' tests. */
function Worded(props: Omit<OtaUpdateBannerProps, 'update'>) {
  const update = useOtaUpdatePolicy({ dismissals: createDismissedUpdates() });
  return <OtaUpdateBanner update={update} {...props} />;
}

const KO = OTA_UPDATE_CATALOGUES.ko;
const EN = OTA_UPDATE_CATALOGUES.en;

/** What the banner says: its sentence, its action, and the ✕ button's name. */
function bannerWords() {
  return {
    message: screen.getByTestId('ferry-notify-banner-apply').props.accessibilityLabel as string,
    dismiss: screen.getByTestId('ferry-notify-banner-dismiss').props.accessibilityLabel as string,
  };
}

describe('words: Korean on a Korean device, English elsewhere; the app may choose and replace them', () => {
  it.each([
    ['ko-KR', 'ko'],
    ['ko_KR', 'ko'],
    ['ko', 'ko'],
    ['en-US', 'en'],
    ['en-KR', 'en'],
    ['ja-JP', 'en'],
    [undefined, 'ko'],
  ] as const)('a device whose locale is %s: the banner in %s', (locale, language) => {
    mockDevice.locale = locale;
    updatesMock.state = downloaded(FIRST, NOTIFY);
    render(<Worded />);
    const words = OTA_UPDATE_CATALOGUES[language].banner;
    expect(screen.getByText(words.message)).toBeTruthy();
    expect(screen.getByText(words.action)).toBeTruthy();
    expect(bannerWords()).toEqual({ message: `${words.message} ${words.action}`, dismiss: words.dismiss });
    expect(screen.getByRole('button', { name: words.dismiss })).toBeTruthy();
  });

  it('the Korean banner: 새 버전이 준비되었어요 · 지금 업데이트 · 닫기', async () => {
    mockDevice.locale = 'ko-KR';
    updatesMock.state = downloaded(FIRST, NOTIFY);
    render(<Worded />);
    expect(bannerWords()).toEqual({ message: '새 버전이 준비되었어요. 지금 업데이트', dismiss: '닫기' });
    await act(async () => fireEvent.press(screen.getByRole('button', { name: /지금 업데이트/ })));
    expect(updatesMock.reloadAsync).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['ko-KR', 'en'],
    ['en-US', 'ko'],
  ] as const)('a device in %s, the app says language="%s": the app wins', (locale, language: Language) => {
    mockDevice.locale = locale;
    updatesMock.state = downloaded(FIRST, NOTIFY);
    render(<Worded language={language} />);
    expect(screen.getByText(OTA_UPDATE_CATALOGUES[language].banner.message)).toBeTruthy();
  });

  it('labels replace single texts; the others stay in the language (an undefined label too)', () => {
    mockDevice.locale = 'ko-KR';
    updatesMock.state = downloaded(FIRST, NOTIFY);
    render(<Worded labels={{ action: '설치하기', dismiss: undefined }} />);
    expect(bannerWords()).toEqual({ message: `${KO.banner.message} 설치하기`, dismiss: KO.banner.dismiss });
    expect(screen.queryByText(KO.banner.action)).toBeNull();
  });

  it('labels replace every text, whatever the language', () => {
    mockDevice.locale = 'ko-KR';
    updatesMock.state = downloaded(FIRST, NOTIFY);
    render(<Worded language="en" labels={{ message: 'Nouvelle version', action: 'Installer', dismiss: 'Fermer' }} />);
    expect(bannerWords()).toEqual({ message: 'Nouvelle version Installer', dismiss: 'Fermer' });
  });

  it.each([
    ['ko-KR', undefined, undefined, KO.overlay.updating],
    ['en-US', undefined, undefined, EN.overlay.updating],
    ['en-US', 'ko', undefined, '업데이트하고 있어요…'],
    ['ko-KR', 'en', undefined, 'Updating…'],
    ['ko-KR', undefined, '잠시만 기다려 주세요', '잠시만 기다려 주세요'],
  ] as const)(
    'the Immediate overlay on a %s device, language %s, label %s: "%s"',
    async (locale, language, label, shown) => {
      mockDevice.locale = locale;
      updatesMock.reloadAsync.mockImplementation(() => new Promise<void>(() => {}));
      render(<Worded language={language} immediateLabel={label} />);
      await push(downloaded(FIRST, IMMEDIATE));
      expect(screen.getByTestId('ferry-immediate-overlay').props.accessibilityLabel).toBe(shown);
      expect(screen.getByText(shown)).toBeTruthy();
      // The words say it; the spinner would be a progress bar without a name.
      expect(screen.UNSAFE_root.findByType(ActivityIndicator).props['aria-hidden']).toBe(true);
    },
  );

  it('the components alone take the same props', () => {
    mockDevice.locale = 'ko-KR';
    render(
      <>
        <NotifyBanner onApply={() => {}} onDismiss={() => {}} language="en" />
        <ImmediateOverlay />
      </>,
    );
    expect(screen.getByText(EN.banner.message)).toBeTruthy();
    expect(screen.getByText(KO.overlay.updating)).toBeTruthy();
  });

  it('keeps Korean words whole on a line, like every text of the SDK', () => {
    mockDevice.locale = 'ko-KR';
    render(
      <>
        <NotifyBanner onApply={() => {}} onDismiss={() => {}} />
        <ImmediateOverlay />
      </>,
    );
    const texts: Array<{ props: Record<string, unknown> }> = screen.UNSAFE_root.findAll(
      (node: { type: unknown }) => node.type === 'Text',
    );
    expect(texts).toHaveLength(4);
    for (const text of texts) expect(text.props.lineBreakStrategyIOS).toBe('hangul-word');
    expect(StyleSheet.flatten(screen.getByText(KO.overlay.updating).props.style).textAlign).toBe('center');
  });
});
