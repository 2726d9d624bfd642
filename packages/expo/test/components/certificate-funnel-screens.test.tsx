import { createDecipheriv } from 'node:crypto';
import {
  ALERT_KINDS,
  type AlertKind,
  CATALOGUES,
  type CertificateApi,
  CertificateApiError,
  type CertificateRequest,
  failureOutcome,
} from '@ferry/certificate-flow';
import { type CertificateDocument, PROVIDERS } from '@ferry/contracts';
import { act, configure, fireEvent, render, screen, within } from '@testing-library/react-native';
import { ActivityIndicator, Alert, Linking, Modal, Platform, Share, StyleSheet } from 'react-native';
import { HANG_GUARD_MS } from '../../../../test/support/hang-guard.cjs';
import {
  CertificateFunnel,
  CertificateFunnelI18n,
  createNativeIdentityCipher,
  IntroScreen,
  useCertificateFunnel,
} from '../../src/certificates';
import { keepHangulWords } from '../../src/text/keep-hangul-words';

// A fixed test key (Base64 of 32 bytes) and a deterministic IV source; no real key material.
const KEY = Buffer.alloc(32, 9).toString('base64');
const FIXED_IV = (length: number) => new Uint8Array(length).fill(2);
const BACK = '1234567';
const ASSIGNMENT_ID = '7d0b7c8e-1f2a-4b3c-9d4e-5f6a7b8c9d0e';
const PDF_URL = 'https://objects.example.com/cert.pdf?sig=x';
const KO = CATALOGUES.ko;
// findBy* waits on the screen, never on a clock: a cold module cache must not fail the first test.
configure({ asyncUtilTimeout: HANG_GUARD_MS });
const EN = CATALOGUES.en;

/** What the server does: IV = first 16 bytes of the Base64 payload, AES-256-CBC. */
function serverDecrypt(payload: string): string {
  const bytes = Buffer.from(payload, 'base64');
  const decipher = createDecipheriv('aes-256-cbc', Buffer.from(KEY, 'base64'), bytes.subarray(0, 16));
  return Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]).toString('utf8');
}

type Answer = (request: CertificateRequest) => unknown;

/** A certificate API that answers like the server, and records every request and assignment lookup. */
function fakeServer(answers: Answer[]) {
  const requests: CertificateRequest[] = [];
  const lookups: string[] = [];
  const api: CertificateApi = {
    async requestCertificate(request) {
      requests.push(structuredClone(request));
      const answer = answers.shift();
      if (!answer) throw new Error('unexpected call');
      const result = answer(request);
      if (result instanceof Error) throw result;
      return result as Awaited<ReturnType<CertificateApi['requestCertificate']>>;
    },
    async getAssignment(id) {
      lookups.push(id);
      return { id, certificateVendor: 'VENDOR_B', title: 'e2e', createdAt: '2026-01-01T00:00:00.000Z' };
    },
    async getAuthentication() {
      throw new Error('not used: the native funnel does not resume');
    },
  };
  const server = { api, cipher: createNativeIdentityCipher({ key: KEY, randomBytes: FIXED_IV }) };
  return { server, requests, lookups };
}

const started: Answer = (request) =>
  request.body.vendor === 'VENDOR_A'
    ? { preSignedUrl: null, stepData: 'step-data-1', twoWayInfo: null }
    : {
        preSignedUrl: null,
        stepData: null,
        twoWayInfo: { jobIndex: 1, threadIndex: 2, jti: 'jti-1', twoWayTimestamp: 1_700_000_000 },
      };
const issued: Answer = () => ({ preSignedUrl: PDF_URL, stepData: null, twoWayInfo: null });
const failing =
  (status: number, code: string, details: Record<string, unknown> = {}): Answer =>
  () =>
    new CertificateApiError(status, code, code, details);

/** Presses and lets the work it starts (encryption, a call) settle, as the app's event loop would. */
async function press(element: Parameters<typeof fireEvent.press>[0]) {
  await act(async () => {
    fireEvent.press(element);
  });
}

async function renderFunnel(
  server: ReturnType<typeof fakeServer>['server'],
  props: Partial<{ assignment: boolean; language: 'ko' | 'en' }> = {},
) {
  render(
    <CertificateFunnel
      server={server}
      entry={props.assignment ? { kind: 'assignment', assignmentId: ASSIGNMENT_ID } : { kind: 'menu' }}
      language={props.language}
    />,
  );
  await screen.findByTestId('certificate-intro');
}

const t = (language: 'ko' | 'en') => CATALOGUES[language];

async function pick(pickerTestId: string, option: string) {
  await press(screen.getByTestId(pickerTestId));
  await press(within(screen.getByTestId(`${pickerTestId}-options`)).getByRole('radio', { name: option }));
}

/** Fills intro as a person would: the document, the two number fields, then address or family names. */
async function fillIntro(
  document: CertificateDocument,
  language: 'ko' | 'en' = 'ko',
  names: Record<string, string> = { mthrNm: '김영희' },
) {
  await press(screen.getByRole('radio', { name: t(language).documents[document] }));
  fireEvent.changeText(screen.getByLabelText(t(language).intro.front), '900101');
  fireEvent.changeText(screen.getByLabelText(t(language).intro.back), BACK);
  if (document === 'family-relations') {
    for (const [field, value] of Object.entries(names)) {
      fireEvent.changeText(
        screen.getByLabelText(t(language).intro.family[field as keyof typeof KO.intro.family]),
        value,
      );
    }
  } else {
    await pick('certificate-sido', '서울특별시');
    await pick('certificate-sigg', '강남구');
  }
}

const backgroundOf = (testId: string) => StyleSheet.flatten(screen.getByTestId(testId).props.style).backgroundColor;

let alertSpy: jest.SpyInstance;
beforeEach(() => {
  alertSpy = jest.spyOn(Alert, 'alert').mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

/** The one alert shown so far: its title, message and the single button's press. */
function shownAlert(index = 0) {
  const [title, message, buttons] = alertSpy.mock.calls[index] as [
    string,
    string,
    Array<{ text: string; onPress(): void }>,
  ];
  return { title, message, buttons };
}

describe('CertificateFunnel (native screens)', () => {
  it.each([
    ['resident-certificate', false],
    ['resident-abstract', true],
    ['family-relations', false],
  ] as const)(
    '%s (assignment entry: %s): intro → simpleVerification → confirm → done, in Korean',
    async (document, assignment) => {
      const { server, requests, lookups } = fakeServer([started, issued]);
      const openURL = jest.spyOn(Linking, 'openURL').mockResolvedValue(true);
      const share = jest.spyOn(Share, 'share').mockResolvedValue({ action: 'sharedAction' });
      await renderFunnel(server, { assignment });

      // Korean by default: the service heading and the documents as a Korean resident knows them.
      expect(screen.getByText('전자증명서 발급')).toBeTruthy();
      expect(screen.getByRole('radio', { name: '주민등록표 등본' })).toBeTruthy();
      expect(screen.getByRole('radio', { name: '주민등록표 초본' })).toBeTruthy();
      expect(screen.getByRole('radio', { name: '가족관계증명서' })).toBeTruthy();

      await fillIntro(document);
      expect(screen.getByRole('radio', { name: KO.documents[document] }).props.accessibilityState).toMatchObject({
        checked: true,
      });
      await press(screen.getByRole('button', { name: KO.intro.next }));

      await screen.findByTestId('certificate-simpleVerification');
      expect(screen.getByText(KO.chosenDocument.replace('{{document}}', KO.documents[document]))).toBeTruthy();
      await press(screen.getByRole('button', { name: KO.providers.provider_b }));

      await screen.findByTestId('certificate-confirm');
      expect(
        screen.getByRole('header', { name: KO.confirm.heading.replace('{{provider}}', KO.providers.provider_b) }),
      ).toBeTruthy();
      await press(screen.getByRole('button', { name: KO.confirm.complete }));

      await screen.findByTestId('certificate-done');
      await press(screen.getByRole('button', { name: KO.done.open }));
      expect(openURL).toHaveBeenCalledWith(PDF_URL);
      await press(screen.getByRole('button', { name: KO.done.share }));
      expect(share).toHaveBeenCalledWith(expect.objectContaining({ url: PDF_URL, message: PDF_URL }));

      // Menu → VENDOR_A without an assignment; assignment → the assignment's certificateVendor.
      const vendor = assignment ? 'VENDOR_B' : 'VENDOR_A';
      expect(lookups).toEqual(assignment ? [ASSIGNMENT_ID] : []);
      expect(requests.map((r) => r.document)).toEqual([document, document]);
      expect(requests[0]!.body).toMatchObject({
        vendor,
        loginOrgCd: 'provider_b',
        assignmentId: assignment ? ASSIGNMENT_ID : null,
      });
      if (document === 'family-relations') {
        expect(requests[0]!.body).toMatchObject({
          rrn1: '900101',
          fthrNm: null,
          mthrNm: '김영희',
          sposNm: null,
          childNm: null,
        });
      } else {
        expect(requests[0]!.body).toMatchObject({ birthDate: '900101', sido: '서울특별시', sigg: '강남구' });
      }
      expect(alertSpy).not.toHaveBeenCalled();
    },
  );

  it('masks the 7 digits and encrypts them when leaving intro: only ciphertext is in state and on the wire', async () => {
    const { server, requests } = fakeServer([started]);
    await renderFunnel(server);
    await fillIntro('resident-certificate');
    const backField = screen.getByLabelText(KO.intro.back);
    expect(backField.props.secureTextEntry).toBe(true);
    expect(backField.props.keyboardType).toBe('number-pad');
    expect(screen.getByLabelText(KO.intro.front).props.secureTextEntry).toBeFalsy();

    await press(screen.getByRole('button', { name: KO.intro.next }));
    await screen.findByTestId('certificate-simpleVerification');
    await press(screen.getByRole('button', { name: KO.providers.provider_a }));
    await screen.findByTestId('certificate-confirm');

    const body = requests[0]!.body as { identityEnc: string };
    expect(JSON.stringify(requests)).not.toContain(BACK);
    expect(serverDecrypt(body.identityEnc)).toBe(BACK);

    // Back on intro the 7 digits must be typed again: their plain form was wiped on leaving.
    await press(screen.getByRole('button', { name: KO.confirm.chooseAnother }));
    await press(screen.getByRole('button', { name: KO.verification.back }));
    await screen.findByTestId('certificate-intro');
    expect(screen.getByLabelText(KO.intro.back).props.value).toBe('');
    expect(screen.getByLabelText(KO.intro.front).props.value).toBe('900101');
  });

  it('IntroScreen on its own: the state the screen leaves behind holds the ciphertext, never the digits', async () => {
    const { server } = fakeServer([]);
    let latest: ReturnType<typeof useCertificateFunnel> | undefined;
    function ComposedIntro() {
      latest = useCertificateFunnel({ vendor: 'VENDOR_A' }, server);
      return <IntroScreen state={latest.state} dispatch={latest.dispatch} />;
    }
    render(
      <CertificateFunnelI18n>
        <ComposedIntro />
      </CertificateFunnelI18n>,
    );
    await fillIntro('resident-certificate');
    expect(latest!.state.intro.back).toBe(BACK);
    await press(screen.getByRole('button', { name: KO.intro.next }));
    expect(latest!.state.step).toBe('simpleVerification');
    expect(latest!.state.intro.back).toBe('');
    expect(serverDecrypt(latest!.state.identityEnc!)).toBe(BACK);
    expect(JSON.stringify(latest!.state)).not.toContain(BACK);
  });

  it('validation is shown once, inline next to the fields, with no alert; nothing is encrypted or sent', async () => {
    const { server, requests } = fakeServer([]);
    await renderFunnel(server);
    await press(screen.getByRole('button', { name: KO.intro.next }));
    expect(screen.getByText(KO.validation.front.missing)).toBeTruthy();
    expect(screen.getByText(KO.validation.back.replace('{{count}}', '0'))).toBeTruthy();
    expect(screen.getByText(KO.validation.sido)).toBeTruthy();
    expect(screen.getByTestId('certificate-intro')).toBeTruthy();
    expect(alertSpy).not.toHaveBeenCalled();
    expect(requests).toHaveLength(0);
  });

  it('family relations: at least one of the four names (any one is enough)', async () => {
    const { server, requests } = fakeServer([started]);
    await renderFunnel(server);
    await fillIntro('family-relations', 'ko', {});
    expect(screen.queryByTestId('certificate-sido')).toBeNull();
    await press(screen.getByRole('button', { name: KO.intro.next }));
    expect(screen.getByText(KO.validation.familyRequired)).toBeTruthy();
    expect(screen.getByTestId('certificate-intro')).toBeTruthy();

    fireEvent.changeText(screen.getByLabelText(KO.intro.family.childNm), '이하나');
    await press(screen.getByRole('button', { name: KO.intro.next }));
    await screen.findByTestId('certificate-simpleVerification');
    await press(screen.getByRole('button', { name: KO.providers.provider_c }));
    expect(requests[0]!.body).toMatchObject({ fthrNm: null, mthrNm: null, sposNm: null, childNm: '이하나' });
    expect(alertSpy).not.toHaveBeenCalled();
  });

  it('the five providers in the seed order, with the shared labels and colours, as 48 pt buttons', async () => {
    const { server } = fakeServer([]);
    await renderFunnel(server);
    await fillIntro('resident-certificate');
    await press(screen.getByRole('button', { name: KO.intro.next }));
    await screen.findByTestId('certificate-simpleVerification');

    const ordered = [...PROVIDERS].sort((a, b) => a.order - b.order);
    const buttons = screen.getAllByTestId(/^certificate-provider-/);
    expect(buttons.map((b) => b.props.testID)).toEqual(ordered.map((p) => `certificate-provider-${p.code}`));
    expect(buttons.map((b) => b.props.accessibilityLabel)).toEqual(ordered.map((p) => KO.providers[p.code]));
    for (const provider of ordered) {
      expect(backgroundOf(`certificate-provider-${provider.code}`)).toBe(provider.color);
      const style = StyleSheet.flatten(screen.getByTestId(`certificate-provider-${provider.code}`).props.style);
      expect(style.minHeight).toBeGreaterThanOrEqual(44);
      expect(
        within(screen.getByTestId(`certificate-provider-${provider.code}`)).getByText(KO.providers[provider.code]).props
          .style,
      ).toEqual(expect.arrayContaining([{ color: provider.textColor }]));
    }
  });

  it('"not approved yet": a native alert, the person stays on confirm and can press Complete again', async () => {
    const { server, requests } = fakeServer([started, failing(409, 'AUTH_PENDING'), issued]);
    await renderFunnel(server);
    await fillIntro('resident-certificate');
    await press(screen.getByRole('button', { name: KO.intro.next }));
    await press(await screen.findByRole('button', { name: KO.providers.provider_a }));
    await press(await screen.findByRole('button', { name: KO.confirm.complete }));

    expect(alertSpy).toHaveBeenCalledTimes(1);
    const alert = shownAlert();
    expect([alert.title, alert.message]).toEqual([KO.alerts.notApprovedYet.title, KO.alerts.notApprovedYet.message]);
    expect(alert.buttons.map((b) => b.text)).toEqual([KO.dialog.ok]);
    expect(screen.getByTestId('certificate-confirm')).toBeTruthy();

    await act(async () => alert.buttons[0]!.onPress());
    await press(screen.getByRole('button', { name: KO.confirm.complete }));
    await screen.findByTestId('certificate-done');
    expect(requests).toHaveLength(3);
  });

  it('"expired": a native alert, back to the provider choice, and a new first call after choosing again', async () => {
    // VENDOR_B's window, 270 s: the alert says 4 minutes (rounded down, never longer than it is).
    const { server, requests } = fakeServer([
      started,
      failing(410, 'AUTH_EXPIRED', { approvalWindowSeconds: 270 }),
      started,
    ]);
    await renderFunnel(server);
    await fillIntro('resident-abstract');
    await press(screen.getByRole('button', { name: KO.intro.next }));
    await press(await screen.findByRole('button', { name: KO.providers.provider_d }));
    await press(await screen.findByRole('button', { name: KO.confirm.complete }));

    const alert = shownAlert();
    expect([alert.title, alert.message]).toEqual([
      KO.alerts.authenticationExpired.title,
      KO.alerts.authenticationExpired.message.replace('{{minutes}}', '4'),
    ]);
    await act(async () => alert.buttons[0]!.onPress());
    await screen.findByTestId('certificate-simpleVerification');
    await press(screen.getByRole('button', { name: KO.providers.provider_d }));
    await screen.findByTestId('certificate-confirm');
    expect(requests[2]!.body).toMatchObject({ stepData: null, twoWayInfo: null });
  });

  it('switches to English on the screen: every word, the alerts included, from the English catalogue', async () => {
    const { server } = fakeServer([started, failing(409, 'AUTH_PENDING')]);
    await renderFunnel(server);
    await press(screen.getByRole('radio', { name: 'English' }));
    expect(screen.getByText(EN.service.heading)).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'English' }).props.accessibilityState).toMatchObject({ checked: true });
    await fillIntro('resident-certificate', 'en');
    await press(screen.getByRole('button', { name: EN.intro.next }));
    await screen.findByTestId('certificate-simpleVerification');
    expect(screen.getAllByTestId(/^certificate-provider-/).map((b) => b.props.accessibilityLabel)).toEqual(
      PROVIDERS.map((p) => p.label),
    );
    await press(screen.getByRole('button', { name: 'Messenger app' }));
    await press(await screen.findByRole('button', { name: EN.confirm.complete }));
    expect(shownAlert().title).toBe(EN.alerts.notApprovedYet.title);
    expect(shownAlert().buttons[0]!.text).toBe(EN.dialog.ok);
  });

  it('language="en" starts in English', async () => {
    const { server } = fakeServer([]);
    await renderFunnel(server, { language: 'en' });
    expect(screen.getByRole('radio', { name: EN.documents['family-relations'] })).toBeTruthy();
    expect(screen.getByRole('button', { name: EN.intro.next })).toBeTruthy();
  });

  it('an unknown assignment: the "assignment not found" alert and no intro', async () => {
    const { server } = fakeServer([]);
    server.api.getAssignment = async () => {
      throw new CertificateApiError(404, 'ASSIGNMENT_NOT_FOUND', 'gone');
    };
    render(<CertificateFunnel server={server} entry={{ kind: 'assignment', assignmentId: ASSIGNMENT_ID }} />);
    await screen.findByTestId('certificate-entry-failure');
    expect(shownAlert().title).toBe(KO.alerts.assignmentNotFound.title);
    expect(screen.queryByTestId('certificate-intro')).toBeNull();
  });

  it('an unknown assignment offers the way back the app gave (onExit)', async () => {
    const { server } = fakeServer([]);
    server.api.getAssignment = async () => {
      throw new CertificateApiError(404, 'ASSIGNMENT_NOT_FOUND', 'gone');
    };
    const onExit = jest.fn();
    render(
      <CertificateFunnel server={server} entry={{ kind: 'assignment', assignmentId: ASSIGNMENT_ID }} onExit={onExit} />,
    );
    await press(await screen.findByRole('button', { name: KO.entry.backToList }));
    expect(onExit).toHaveBeenCalledTimes(1);
  });

  it('"identity confirmation needed" names the app’s own menu when it gives one', async () => {
    const { server } = fakeServer([]);
    server.api.getAssignment = async () => {
      throw new CertificateApiError(403, 'NOT_CERTIFIED', 'not certified');
    };
    render(
      <CertificateFunnel
        server={server}
        entry={{ kind: 'assignment', assignmentId: ASSIGNMENT_ID }}
        certificationMenu="내 정보 > 본인인증"
      />,
    );
    await screen.findByTestId('certificate-entry-failure');
    expect(shownAlert().message).toBe(KO.alerts.notCertified.messageWithMenu.replace('{{menu}}', '내 정보 > 본인인증'));
  });

  it('screen-reader semantics: headings, a radio group for the document, labelled fields, busy state', async () => {
    const { server } = fakeServer([]);
    await renderFunnel(server);
    expect(screen.getByRole('header', { name: KO.intro.heading })).toBeTruthy();
    // Groups stay non-accessible containers (an accessible View would hide its radios on iOS).
    expect(screen.getByTestId('certificate-documents').props).toMatchObject({
      accessibilityRole: 'radiogroup',
      accessibilityLabel: KO.intro.documentLegend,
    });
    expect(screen.getByTestId('certificate-language').props).toMatchObject({
      accessibilityRole: 'radiogroup',
      accessibilityLabel: KO.language.label,
    });
    expect(screen.getByRole('button', { name: `${KO.intro.sido}: ${KO.intro.sidoPlaceholder}` })).toBeTruthy();
    // The district waits for the province, and says so.
    expect(
      screen.getByRole('button', { name: `${KO.intro.sigg}: ${KO.intro.siggNeedsSido}` }).props.accessibilityState,
    ).toMatchObject({
      disabled: true,
    });
    for (const button of screen.getAllByRole('button')) {
      expect(StyleSheet.flatten(button.props.style).minHeight).toBeGreaterThanOrEqual(44);
    }
  });
});

/** A failure for every alert the funnel can show: when it happens (first or second call) and what the server said. */
const EVERY_ALERT: Array<[AlertKind, 'start' | 'complete', number, string]> = [
  ['invalidInput', 'complete', 400, 'VALIDATION_FAILED'],
  ['notApprovedYet', 'complete', 409, 'AUTH_PENDING'],
  ['authenticationExpired', 'complete', 410, 'AUTH_EXPIRED'],
  ['unsupportedProvider', 'start', 400, 'UNSUPPORTED_PROVIDER'],
  ['vendorMismatch', 'start', 409, 'VENDOR_MISMATCH'],
  ['rejected', 'complete', 422, 'VENDOR_REJECTED'],
  ['signedOut', 'start', 401, 'UNAUTHORIZED'],
  ['notCertified', 'start', 403, 'NOT_CERTIFIED'],
  ['assignmentNotFound', 'start', 404, 'ASSIGNMENT_NOT_FOUND'],
  ['tooManyRequests', 'complete', 429, 'RATE_LIMITED'],
  ['unavailable', 'complete', 503, 'VENDOR_UNAVAILABLE'],
  ['network', 'complete', 0, 'NETWORK_ERROR'],
  ['unexpected', 'complete', 500, 'INTERNAL'],
];

describe('every alert, as a native alert on the step the web funnel shows', () => {
  it('the table covers every alert kind (encryptionUnavailable: below)', () => {
    expect([...EVERY_ALERT.map(([kind]) => kind), 'encryptionUnavailable'].sort()).toEqual([...ALERT_KINDS].sort());
  });

  it.each(EVERY_ALERT)('%s (%s call, HTTP %i %s)', async (kind, during, status, code) => {
    const { server } = fakeServer(during === 'start' ? [failing(status, code)] : [started, failing(status, code)]);
    await renderFunnel(server);
    await fillIntro('resident-certificate');
    await press(screen.getByRole('button', { name: KO.intro.next }));
    await press(await screen.findByRole('button', { name: KO.providers.provider_e }));
    if (during === 'complete') await press(await screen.findByRole('button', { name: KO.confirm.complete }));

    expect(alertSpy).toHaveBeenCalledTimes(1);
    const alert = shownAlert();
    // The words of the shared alert: an expiry the server did not time says so without a number.
    const message = kind === 'authenticationExpired' ? KO.alerts[kind].messageWithoutLimit : KO.alerts[kind].message;
    expect([alert.title, alert.message]).toEqual([KO.alerts[kind].title, message]);
    expect(alert.buttons.map((b) => b.text)).toEqual([KO.dialog.ok]);
    // No error step: the person is on the step the shared failure rule names.
    const { step } = failureOutcome(during, { status, code });
    expect(screen.getByTestId(`certificate-${step}`)).toBeTruthy();
  });

  it('encryptionUnavailable: a bad key fails on Next, nothing is sent, the person stays on intro', async () => {
    const { server, requests } = fakeServer([]);
    await renderFunnel({ ...server, cipher: createNativeIdentityCipher({ key: 'not a key', randomBytes: FIXED_IV }) });
    await fillIntro('resident-certificate');
    await press(screen.getByRole('button', { name: KO.intro.next }));
    expect(shownAlert().title).toBe(KO.alerts.encryptionUnavailable.title);
    expect(screen.getByTestId('certificate-intro')).toBeTruthy();
    expect(requests).toHaveLength(0);
  });
});

/** The parts of a rendered element these checks read (react-test-renderer ships no types). */
interface Rendered {
  type: unknown;
  props: Record<string, unknown>;
  children: Array<Rendered | string>;
}

/** Every text the screen shows now: React Native's host Text elements under the rendered tree. */
const hostTexts = (): Rendered[] => screen.UNSAFE_root.findAll((node: Rendered) => node.type === 'Text');
const words = (node: Rendered): string =>
  node.children.map((child) => (typeof child === 'string' ? child : words(child))).join('');

describe('Korean line breaks: every text of the funnel keeps Korean words whole', () => {
  /** Each text on screen, with the line-break props it got; `where` names the screen in a failure. */
  function expectEveryTextKeepsWords(where: string) {
    const texts = hostTexts();
    expect(texts.length).toBeGreaterThan(0);
    for (const node of texts) {
      expect({ where, text: words(node), strategy: node.props.lineBreakStrategyIOS }).toEqual({
        where,
        text: words(node),
        strategy: 'hangul-word',
      });
    }
  }

  it('iOS: lineBreakStrategyIOS="hangul-word" on every text of every step, picker, alert screen and language', async () => {
    const { server } = fakeServer([started, issued]);
    await renderFunnel(server);
    expectEveryTextKeepsWords('intro');
    await press(screen.getByRole('button', { name: KO.intro.next }));
    expect(screen.getByText(KO.validation.sido)).toBeTruthy();
    expectEveryTextKeepsWords('intro with field errors');
    await press(screen.getByTestId('certificate-sido'));
    expectEveryTextKeepsWords('region picker');
    await press(screen.getByRole('button', { name: KO.dialog.close }));
    await press(screen.getByRole('radio', { name: KO.documents['family-relations'] }));
    await press(screen.getByRole('button', { name: KO.intro.next }));
    expect(screen.getByText(KO.validation.familyRequired)).toBeTruthy();
    expectEveryTextKeepsWords('family names with field errors');
    await fillIntro('resident-certificate');
    await press(screen.getByRole('button', { name: KO.intro.next }));
    await screen.findByTestId('certificate-simpleVerification');
    expectEveryTextKeepsWords('simpleVerification');
    await press(screen.getByRole('button', { name: KO.providers.provider_a }));
    await screen.findByTestId('certificate-confirm');
    expectEveryTextKeepsWords('confirm');
    await press(screen.getByRole('button', { name: KO.confirm.complete }));
    await screen.findByTestId('certificate-done');
    expectEveryTextKeepsWords('done');
    await press(screen.getByRole('radio', { name: 'English' }));
    expect(screen.getByText(EN.done.heading)).toBeTruthy();
    expectEveryTextKeepsWords('done, in English');
  });

  it('iOS: the loading line and the entry failure too', async () => {
    const { server } = fakeServer([]);
    let fail: (error: Error) => void = () => {};
    server.api.getAssignment = () => new Promise((_resolve, reject) => (fail = reject));
    render(<CertificateFunnel server={server} entry={{ kind: 'assignment', assignmentId: ASSIGNMENT_ID }} />);
    expect(screen.getByText(KO.loading)).toBeTruthy();
    expectEveryTextKeepsWords('loading');
    // The words say it; the spinner would be a progress bar without a name.
    expect(screen.UNSAFE_root.findByType(ActivityIndicator).props['aria-hidden']).toBe(true);
    await act(async () => fail(new CertificateApiError(404, 'ASSIGNMENT_NOT_FOUND', 'gone')));
    await screen.findByTestId('certificate-entry-failure');
    expectEveryTextKeepsWords('entry failure');
  });

  it('Android: word joiners inside every Korean word, and the screen reader gets the words without them', async () => {
    jest.replaceProperty(Platform, 'OS', 'android');
    const { server } = fakeServer([]);
    await renderFunnel(server);
    await press(screen.getByRole('button', { name: KO.intro.next }));
    const korean = hostTexts().filter((node) => /[가-힣]/.test(words(node)));
    expect(korean.length).toBeGreaterThan(5);
    for (const node of korean) {
      const shown = words(node);
      // Two Hangul syllables side by side would be a place to break a word.
      expect(shown).not.toMatch(/[가-힣][가-힣]/);
      // A text the joiners changed is spoken from its own words (a text they left alone needs no label).
      expect(node.props.accessibilityLabel ?? shown).toBe(shown.replaceAll('\u2060', ''));
    }
    const sentence = hostTexts().find((node) => node.props.accessibilityLabel === KO.validation.sido);
    expect(sentence && words(sentence)).toBe(keepHangulWords(KO.validation.sido));
  });
});

describe('the region picker is a named dialog with a close button', () => {
  it.each([
    ['ko', KO],
    ['en', EN],
  ] as const)('%s: role dialog named after the field, closed by its button', async (language, words) => {
    const { server } = fakeServer([]);
    await renderFunnel(server, { language });
    const trigger = screen.getByTestId('certificate-sido');
    expect(trigger.props.accessibilityState).toMatchObject({ expanded: false });
    await press(trigger);

    const dialog = screen.getByTestId('certificate-sido-options');
    expect(dialog.props).toMatchObject({
      role: 'dialog',
      'aria-label': words.intro.sido,
      accessibilityViewIsModal: true,
    });
    // react-native-web's Modal is the dialog element itself and takes the same name.
    const modals: Rendered[] = screen.UNSAFE_root.findAllByType(Modal);
    const open = modals.filter((modal) => modal.props.visible);
    expect(open.map((modal) => modal.props['aria-label'])).toEqual([words.intro.sido]);
    expect(screen.getByTestId('certificate-sido').props.accessibilityState).toMatchObject({ expanded: true });
    expect(within(dialog).getByRole('radio', { name: '서울특별시' })).toBeTruthy();

    const close = within(dialog).getByRole('button', { name: words.dialog.close });
    expect(close.props.testID).toBe('certificate-sido-close');
    await press(close);
    expect(screen.queryByTestId('certificate-sido-options')).toBeNull();
    expect(screen.getByRole('button', { name: `${words.intro.sido}: ${words.intro.sidoPlaceholder}` })).toBeTruthy();
  });

  it('says 닫기 in Korean', () => {
    expect(KO.dialog.close).toBe('닫기');
  });
});
