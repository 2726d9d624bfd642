import type { CertificateAuthentication, CertificateResponse } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import type { CertificateAnswer, CertificateApi } from '../../src/api/certificate-api.js';
import { CertificateApiError } from '../../src/api/certificate-api-error.js';
import { createPureJsCipher } from '../../src/encryption/pure-js-cipher.js';
import type { CertificateRequest } from '../../src/funnel/certificate-request.js';
import type { FunnelEvent } from '../../src/funnel/funnel-events.js';
import { funnelReducer } from '../../src/funnel/funnel-reducer.js';
import { type FunnelState, initialFunnelState } from '../../src/funnel/funnel-state.js';
import { performPendingWork } from '../../src/funnel/pending-work.js';
import { createNodeCipher, TEST_AES_KEY } from '../support/node-cipher.js';

/** A scripted server: answers each call in turn and records the requests; `read` answers the authentication reads. */
function scriptedApi(...answers: Array<CertificateResponse | CertificateAnswer | CertificateApiError>) {
  const requests: CertificateRequest[] = [];
  const reads: string[] = [];
  let read: (id: string) => CertificateAuthentication = () => {
    throw new CertificateApiError(0, 'NETWORK_ERROR', 'offline');
  };
  const api: CertificateApi = {
    requestCertificate: async (request) => {
      requests.push(request);
      const answer = answers.shift();
      if (!answer) throw new Error('unexpected call');
      if (answer instanceof CertificateApiError) throw answer;
      return answer;
    },
    getAssignment: async () => {
      throw new Error('not used');
    },
    getAuthentication: async (id) => {
      reads.push(id);
      return read(id);
    },
  };
  return {
    api,
    requests,
    reads,
    answerReads: (answer: (id: string) => CertificateAuthentication) => {
      read = answer;
    },
  };
}

const AUTHENTICATION_ID = '0b6f3c1e-5a2d-4f8b-9c7e-1d2a3b4c5d6e';
const issuedReading = (remainingSeconds: number): CertificateAuthentication => ({
  id: AUTHENTICATION_ID,
  document: 'family-relations',
  vendor: 'VENDOR_A',
  provider: 'provider_a',
  assignmentId: null,
  status: 'issued',
  approvalWindowSeconds: 300,
  approvalExpiresAt: '2025-01-01T00:05:00.000Z',
  certificate: {
    preSignedUrl: 'https://objects.test/again.pdf',
    expiresAt: '2025-01-01T00:10:00.000Z',
    remainingSeconds,
  },
});

/** Dispatches an event, then performs whatever work it asked for, as a client's effect hook does. */
async function drive(state: FunnelState, event: FunnelEvent, api: CertificateApi): Promise<FunnelState> {
  let next = funnelReducer(state, event);
  const answer = await performPendingWork(next, { api, cipher: createPureJsCipher(TEST_AES_KEY) });
  if (answer) next = funnelReducer(next, answer);
  return next;
}

async function toProviderChoice(api: CertificateApi, vendor: 'VENDOR_A' | 'VENDOR_B'): Promise<FunnelState> {
  let state = initialFunnelState({ vendor, document: 'family-relations' });
  state = funnelReducer(state, { type: 'fieldChanged', field: 'front', value: '900101' });
  state = funnelReducer(state, { type: 'fieldChanged', field: 'back', value: '1234567' });
  state = funnelReducer(state, { type: 'fieldChanged', field: 'childNm', value: '홍길순' });
  return drive(state, { type: 'introSubmitted' }, api);
}

describe('performing the pending work', () => {
  it('encrypts the back part so that the server side can read it', async () => {
    const state = await toProviderChoice(scriptedApi().api, 'VENDOR_A');
    expect(state.step).toBe('simpleVerification');
    expect(await createNodeCipher(TEST_AES_KEY).decrypt(state.identityEnc ?? '')).toBe('1234567');
  });

  it('sends the first and second calls and reaches done (VENDOR_B, twoWayInfo)', async () => {
    const twoWayInfo = { jobIndex: 0, threadIndex: 0, jti: 'j', twoWayTimestamp: 5 };
    const { api, requests } = scriptedApi(
      { preSignedUrl: null, stepData: null, twoWayInfo },
      { preSignedUrl: 'https://objects.test/c.pdf', stepData: null, twoWayInfo: null },
    );
    let state = await toProviderChoice(api, 'VENDOR_B');
    state = await drive(state, { type: 'providerChosen', provider: 'provider_d' }, api);
    expect(state.step).toBe('confirm');
    state = await drive(state, { type: 'completePressed' }, api);
    expect(state).toMatchObject({ step: 'done', preSignedUrl: 'https://objects.test/c.pdf' });
    expect(requests.map((r) => r.body.twoWayInfo)).toEqual([null, twoWayInfo]);
    expect(requests[1]?.body).toMatchObject({ loginOrgCd: 'provider_d', rrn1: '900101', childNm: '홍길순' });
  });

  it('keeps the authentication’s id, and after issuance reads how long the link lasts', async () => {
    const scripted = scriptedApi(
      { preSignedUrl: null, stepData: 'S', twoWayInfo: null, authenticationId: AUTHENTICATION_ID },
      {
        preSignedUrl: 'https://objects.test/c.pdf',
        stepData: null,
        twoWayInfo: null,
        authenticationId: AUTHENTICATION_ID,
      },
    );
    scripted.answerReads(() => issuedReading(600));
    let state = await toProviderChoice(scripted.api, 'VENDOR_A');
    state = await drive(state, { type: 'providerChosen', provider: 'provider_a' }, scripted.api);
    expect(state).toMatchObject({ step: 'confirm', authenticationId: AUTHENTICATION_ID });
    const before = Date.now();
    state = await drive(state, { type: 'completePressed' }, scripted.api);
    expect(scripted.reads).toEqual([AUTHENTICATION_ID]);
    expect(state).toMatchObject({ step: 'done', preSignedUrl: 'https://objects.test/c.pdf' });
    expect(state.certificateLink?.minutes).toBe(10);
    expect(state.certificateLink?.expiresAt).toBeGreaterThanOrEqual(before + 600_000);
  });

  it('shows the issued link even when how long it lasts cannot be read', async () => {
    const scripted = scriptedApi(
      { preSignedUrl: null, stepData: 'S', twoWayInfo: null, authenticationId: AUTHENTICATION_ID },
      {
        preSignedUrl: 'https://objects.test/c.pdf',
        stepData: null,
        twoWayInfo: null,
        authenticationId: AUTHENTICATION_ID,
      },
    );
    let state = await toProviderChoice(scripted.api, 'VENDOR_A');
    state = await drive(state, { type: 'providerChosen', provider: 'provider_a' }, scripted.api);
    state = await drive(state, { type: 'completePressed' }, scripted.api);
    expect(state).toMatchObject({ step: 'done', preSignedUrl: 'https://objects.test/c.pdf', certificateLink: null });
  });

  it('reads a resumed authentication again', async () => {
    const scripted = scriptedApi();
    scripted.answerReads(() => issuedReading(120));
    const resuming: FunnelState = {
      ...initialFunnelState({ vendor: 'VENDOR_A', document: 'family-relations' }),
      step: 'done',
      authenticationId: AUTHENTICATION_ID,
      pending: { kind: 'resume', id: 1 },
      sequence: 1,
    };
    const answer = await performPendingWork(resuming, { api: scripted.api, cipher: createPureJsCipher(TEST_AES_KEY) });
    expect(answer).toMatchObject({ type: 'authenticationRead', id: 1, authentication: issuedReading(120) });
    expect(funnelReducer(resuming, answer!)).toMatchObject({
      step: 'done',
      preSignedUrl: 'https://objects.test/again.pdf',
      certificateLink: { minutes: 2 },
      pending: null,
    });
  });

  it('turns a failed call into an alert, never an exception', async () => {
    const { api } = scriptedApi(new CertificateApiError(400, 'UNSUPPORTED_PROVIDER', 'no'));
    let state = await toProviderChoice(api, 'VENDOR_B');
    state = await drive(state, { type: 'providerChosen', provider: 'provider_e' }, api);
    expect(state).toMatchObject({ step: 'simpleVerification', pending: null, alert: { kind: 'unsupportedProvider' } });
  });

  it('treats a first answer without the vendor’s authentication state as a failure', async () => {
    const { api } = scriptedApi({ preSignedUrl: null, stepData: null, twoWayInfo: null });
    let state = await toProviderChoice(api, 'VENDOR_A');
    state = await drive(state, { type: 'providerChosen', provider: 'provider_a' }, api);
    expect(state).toMatchObject({ step: 'simpleVerification', alert: { kind: 'unavailable' } });
  });

  it('reports an encryption failure as an alert on intro', async () => {
    let state = initialFunnelState({ vendor: 'VENDOR_A', document: 'family-relations' });
    for (const [field, value] of [
      ['front', '900101'],
      ['back', '1234567'],
      ['sposNm', 'x'],
    ] as const) {
      state = funnelReducer(state, { type: 'fieldChanged', field, value });
    }
    state = funnelReducer(state, { type: 'introSubmitted' });
    const broken = { encrypt: async () => Promise.reject(new Error('no crypto')), decrypt: async () => '' };
    const answer = await performPendingWork(state, { api: scriptedApi().api, cipher: broken });
    state = funnelReducer(state, answer!);
    expect(state).toMatchObject({ step: 'intro', alert: { kind: 'encryptionUnavailable' } });
  });

  it('does nothing when no work is pending', async () => {
    expect(
      await performPendingWork(initialFunnelState({ vendor: 'VENDOR_A' }), {
        api: scriptedApi().api,
        cipher: createPureJsCipher(TEST_AES_KEY),
      }),
    ).toBeNull();
  });
});
