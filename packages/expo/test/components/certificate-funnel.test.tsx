import { createDecipheriv } from 'node:crypto';
import {
  type CertificateApi,
  CertificateApiError,
  type CertificateRequest,
  FUNNEL_STEPS,
  type FunnelEvent,
} from '@ferry/certificate-flow';
import { PROVIDERS } from '@ferry/contracts';
import { act, renderHook } from '@testing-library/react-native';
import { Alert } from 'react-native';
import {
  CERTIFICATE_PROVIDERS,
  certificateAesKey,
  createNativeIdentityCipher,
  useCertificateFunnel,
} from '../../src/certificates';

// A fixed test key (Base64 of 32 bytes) and a deterministic IV source; no real key material.
const KEY = Buffer.alloc(32, 7).toString('base64');
const FIXED_IV = (length: number) => new Uint8Array(length).fill(1);
const BACK = '1234567';

/** What the server does (decisions.md §5): IV = first 16 bytes of the Base64 payload, AES-256-CBC. */
function serverDecrypt(payload: string): string {
  const bytes = Buffer.from(payload, 'base64');
  const decipher = createDecipheriv('aes-256-cbc', Buffer.from(KEY, 'base64'), bytes.subarray(0, 16));
  return Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]).toString('utf8');
}

const TWO_WAY = { jobIndex: 1, threadIndex: 2, jti: 'jti-1', twoWayTimestamp: 1_700_000_000 };

/** A certificate API that answers like the server, and records every request it got. */
function fakeApi(answers: Array<(request: CertificateRequest) => unknown>) {
  const requests: CertificateRequest[] = [];
  const api: CertificateApi = {
    async requestCertificate(request) {
      requests.push(request);
      const answer = answers.shift();
      if (!answer) throw new Error('unexpected call');
      const result = answer(request);
      if (result instanceof Error) throw result;
      return result as Awaited<ReturnType<CertificateApi['requestCertificate']>>;
    },
    async getAssignment() {
      throw new Error('not used');
    },
    async getAuthentication() {
      throw new Error('not used');
    },
  };
  return { api, requests };
}

const firstCallA = () => ({ preSignedUrl: null, stepData: 'step-data-1', twoWayInfo: null });
const firstCallB = () => ({ preSignedUrl: null, stepData: null, twoWayInfo: TWO_WAY });
const issued = () => ({ preSignedUrl: 'https://objects.example.com/cert.pdf?sig=x', stepData: null, twoWayInfo: null });

const fill: FunnelEvent[] = [
  { type: 'fieldChanged', field: 'front', value: '900101' },
  { type: 'fieldChanged', field: 'back', value: BACK },
  { type: 'fieldChanged', field: 'sido', value: '서울특별시' },
  { type: 'fieldChanged', field: 'sigg', value: '강남구' },
];

/** Dispatches and lets the work it starts (encryption, a call) settle, as the app's event loop would. */
async function send(dispatch: (event: FunnelEvent) => void, ...events: FunnelEvent[]) {
  for (const event of events) {
    await act(async () => dispatch(event));
  }
}

let alertSpy: jest.SpyInstance;
beforeEach(() => {
  alertSpy = jest.spyOn(Alert, 'alert').mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

describe('useCertificateFunnel (native hooks over @ferry/certificate-flow)', () => {
  it.each([
    ['VENDOR_A', firstCallA, { stepData: 'step-data-1', twoWayInfo: null }],
    ['VENDOR_B', firstCallB, { stepData: null, twoWayInfo: TWO_WAY }],
  ] as const)(
    '%s: intro → simpleVerification → confirm → done, two calls to one endpoint',
    async (vendor, first, authState) => {
      const cipher = createNativeIdentityCipher({ key: KEY, randomBytes: FIXED_IV });
      const { api, requests } = fakeApi([first, issued]);
      const deps = { cipher, api };
      const { result } = renderHook(() => useCertificateFunnel({ vendor }, deps));
      const steps = [result.current.state.step];

      await send(result.current.dispatch, ...fill, { type: 'introSubmitted' });
      steps.push(result.current.state.step);
      expect(result.current.state.step).toBe('simpleVerification');
      expect(result.current.state.intro.back).toBe('');

      await send(result.current.dispatch, { type: 'providerChosen', provider: 'provider_c' });
      steps.push(result.current.state.step);
      expect(result.current.state.step).toBe('confirm');

      await send(result.current.dispatch, { type: 'completePressed' });
      steps.push(result.current.state.step);
      expect(result.current.state).toMatchObject({ step: 'done', preSignedUrl: issued().preSignedUrl });

      expect(steps).toEqual(['intro', 'simpleVerification', 'confirm', 'done']);
      expect(requests).toHaveLength(2);
      const [firstCall, secondCall] = requests as [CertificateRequest, CertificateRequest];
      expect(firstCall.document).toBe('resident-certificate');
      expect(firstCall.body).toMatchObject({
        vendor,
        loginOrgCd: 'provider_c',
        birthDate: '900101',
        stepData: null,
        twoWayInfo: null,
      });
      expect(secondCall.body).toMatchObject({ vendor, loginOrgCd: 'provider_c', birthDate: '900101', ...authState });
      // Only the last 7 digits are encrypted; the plain back part is never sent.
      const identityEnc = (firstCall.body as { identityEnc: string }).identityEnc;
      expect(JSON.stringify(requests)).not.toContain(BACK);
      expect(serverDecrypt(identityEnc)).toBe(BACK);
      expect(alertSpy).not.toHaveBeenCalled();
    },
  );

  it('shows a failure as Alert.alert, stays on confirm (no error step), and retries after OK', async () => {
    const { api, requests } = fakeApi([
      firstCallA,
      () => new CertificateApiError(409, 'AUTH_PENDING', 'not approved'),
      issued,
    ]);
    const deps = { cipher: createNativeIdentityCipher({ key: KEY, randomBytes: FIXED_IV }), api };
    const { result } = renderHook(() => useCertificateFunnel({ vendor: 'VENDOR_A' }, deps, { language: 'en' }));
    await send(
      result.current.dispatch,
      ...fill,
      { type: 'introSubmitted' },
      { type: 'providerChosen', provider: 'provider_a' },
    );
    await send(result.current.dispatch, { type: 'completePressed' });

    expect(result.current.state.step).toBe('confirm');
    expect(FUNNEL_STEPS).not.toContain('error');
    expect(alertSpy).toHaveBeenCalledTimes(1);
    const [title, message, buttons] = alertSpy.mock.calls[0] as [
      string,
      string,
      Array<{ text: string; onPress: () => void }>,
    ];
    expect(title).toBe('Not approved yet');
    expect(message).toMatch(/Approve the request in the provider app/);
    expect(buttons.map((button) => button.text)).toEqual(['OK']);

    await act(async () => buttons[0]!.onPress());
    expect(result.current.state.alert).toBeNull();
    await send(result.current.dispatch, { type: 'completePressed' });
    expect(result.current.state.step).toBe('done');
    expect(requests).toHaveLength(3);
    expect(alertSpy).toHaveBeenCalledTimes(1);
  });

  it('without a secure random source, alerts "secure entry unavailable" and sends nothing', async () => {
    const original = globalThis.crypto;
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    try {
      const { api, requests } = fakeApi([]);
      const deps = { cipher: createNativeIdentityCipher({ key: KEY }), api };
      const { result } = renderHook(() => useCertificateFunnel({ vendor: 'VENDOR_B' }, deps, { language: 'en' }));
      await send(result.current.dispatch, ...fill, { type: 'introSubmitted' });
      expect(result.current.state.step).toBe('intro');
      expect(requests).toHaveLength(0);
      expect(alertSpy).toHaveBeenCalledWith(
        'Secure entry unavailable',
        expect.any(String),
        expect.any(Array),
        expect.any(Object),
      );
    } finally {
      Object.defineProperty(globalThis, 'crypto', { value: original, configurable: true });
    }
  });

  it('uses an injected alert presenter when given one', async () => {
    const showAlert = jest.fn();
    const { api } = fakeApi([() => new CertificateApiError(400, 'UNSUPPORTED_PROVIDER', 'no')]);
    const deps = { cipher: createNativeIdentityCipher({ key: KEY, randomBytes: FIXED_IV }), api };
    const { result } = renderHook(() => useCertificateFunnel({ vendor: 'VENDOR_B' }, deps, { showAlert }));
    await send(
      result.current.dispatch,
      ...fill,
      { type: 'introSubmitted' },
      { type: 'providerChosen', provider: 'provider_d' },
    );
    expect(showAlert).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'unsupportedProvider' }),
      expect.any(Function),
    );
    expect(alertSpy).not.toHaveBeenCalled();
    expect(result.current.state.step).toBe('simpleVerification');
  });

  it('offers the same five providers as the web funnel, in the same order, labels and colours', () => {
    const { api } = fakeApi([]);
    const { result } = renderHook(() =>
      useCertificateFunnel({ vendor: 'VENDOR_A' }, { cipher: createNativeIdentityCipher({ key: KEY }), api }),
    );
    expect(result.current.providers).toBe(CERTIFICATE_PROVIDERS);
    expect(CERTIFICATE_PROVIDERS.map((p) => p.code)).toEqual([
      'provider_a',
      'provider_b',
      'provider_c',
      'provider_d',
      'provider_e',
    ]);
    expect(CERTIFICATE_PROVIDERS).toEqual([...PROVIDERS].sort((a, b) => a.order - b.order));
  });

  it('picks the native override key over the shared one, and refuses to run without a key', () => {
    expect(certificateAesKey({ nativeOverride: 'native', shared: 'shared' })).toBe('native');
    expect(certificateAesKey({ nativeOverride: '', shared: 'shared' })).toBe('shared');
    expect(() => certificateAesKey({})).toThrow(/EXPO_PUBLIC_CERT_AES_KEY/);
  });
});
