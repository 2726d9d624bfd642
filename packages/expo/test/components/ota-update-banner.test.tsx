import { act, fireEvent, render, screen } from '@testing-library/react-native';
import { Text, View } from 'react-native';
import { createDismissedUpdates, type DismissedUpdates, OtaUpdateBanner, useOtaUpdatePolicy } from '../../src';
import { checking, downloaded, downloading, idle, resetUpdatesMock, updatesMock } from './expo-updates-mock';

jest.mock('expo-updates', () => jest.requireActual('./expo-updates-mock').expoUpdatesModule, { virtual: true });

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
