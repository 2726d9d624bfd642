import type { TwoWayInfo } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import type { FunnelEvent } from '../../src/funnel/funnel-events.js';
import { funnelReducer } from '../../src/funnel/funnel-reducer.js';
import { type FunnelState, initialFunnelState } from '../../src/funnel/funnel-state.js';

const run = (state: FunnelState, ...events: FunnelEvent[]): FunnelState => events.reduce(funnelReducer, state);
const pendingId = (state: FunnelState): number => {
  if (!state.pending) throw new Error('expected pending work');
  return state.pending.id;
};

const TWO_WAY: TwoWayInfo = { jobIndex: 0, threadIndex: 0, jti: 'abc', twoWayTimestamp: 1 };

function filledIntro(vendor: 'VENDOR_A' | 'VENDOR_B' = 'VENDOR_A'): FunnelState {
  return run(
    initialFunnelState({ vendor }),
    { type: 'fieldChanged', field: 'front', value: '900101' },
    { type: 'fieldChanged', field: 'back', value: '1234567' },
    { type: 'fieldChanged', field: 'sido', value: '서울특별시' },
    { type: 'fieldChanged', field: 'sigg', value: '강남구' },
  );
}

function atConfirm(vendor: 'VENDOR_A' | 'VENDOR_B' = 'VENDOR_A'): FunnelState {
  let state = run(filledIntro(vendor), { type: 'introSubmitted' });
  state = run(state, { type: 'identityEncrypted', id: pendingId(state), identityEnc: 'ENC' });
  state = run(state, { type: 'providerChosen', provider: 'provider_c' });
  return run(state, {
    type: 'authenticationStarted',
    id: pendingId(state),
    stepData: vendor === 'VENDOR_A' ? 'step' : null,
    twoWayInfo: vendor === 'VENDOR_B' ? TWO_WAY : null,
  });
}

describe('funnel reducer', () => {
  it('starts on intro with the entry vendor and assignment', () => {
    const state = initialFunnelState({ vendor: 'VENDOR_B', assignmentId: 'a-1' });
    expect(state).toMatchObject({ step: 'intro', vendor: 'VENDOR_B', assignmentId: 'a-1', pending: null });
  });

  it('walks intro → simpleVerification → confirm → done', () => {
    let state = run(filledIntro(), { type: 'introSubmitted' });
    expect(state.pending?.kind).toBe('encrypt');
    expect(state.step).toBe('intro');

    state = run(state, { type: 'identityEncrypted', id: pendingId(state), identityEnc: 'ENC' });
    expect(state).toMatchObject({ step: 'simpleVerification', identityEnc: 'ENC', pending: null });

    state = run(state, { type: 'providerChosen', provider: 'provider_a' });
    expect(state).toMatchObject({ step: 'simpleVerification', loginOrgCd: 'provider_a', pending: { kind: 'start' } });

    state = run(state, { type: 'authenticationStarted', id: pendingId(state), stepData: 'S', twoWayInfo: null });
    expect(state).toMatchObject({ step: 'confirm', stepData: 'S', pending: null });

    state = run(state, { type: 'completePressed' });
    expect(state.pending?.kind).toBe('complete');
    state = run(state, { type: 'certificateIssued', id: pendingId(state), preSignedUrl: 'https://x/doc.pdf' });
    expect(state).toMatchObject({ step: 'done', preSignedUrl: 'https://x/doc.pdf', stepData: null, twoWayInfo: null });
  });

  it('wipes the plain back part when leaving intro', () => {
    let state = run(filledIntro(), { type: 'introSubmitted' });
    expect(state.intro.back).toBe('1234567');
    state = run(state, { type: 'identityEncrypted', id: pendingId(state), identityEnc: 'ENC' });
    expect(state.intro.back).toBe('');
    expect(JSON.stringify(state)).not.toContain('1234567');
  });

  it('keeps invalid input on intro with field errors and an alert, and starts no work', () => {
    const state = run(initialFunnelState({ vendor: 'VENDOR_A' }), { type: 'introSubmitted' });
    expect(state.step).toBe('intro');
    expect(state.pending).toBeNull();
    expect(Object.keys(state.fieldErrors).sort()).toEqual(['back', 'front', 'sido']);
    expect(state.alert?.kind).toBe('invalidInput');
  });

  it('clears a field error when the field changes, and the district when the province changes', () => {
    let state = run(initialFunnelState({ vendor: 'VENDOR_A' }), { type: 'introSubmitted' });
    state = run(state, { type: 'fieldChanged', field: 'front', value: '9' });
    expect(state.fieldErrors.front).toBeUndefined();
    state = run(filledIntro(), { type: 'fieldChanged', field: 'sido', value: '부산광역시' });
    expect(state.intro.sigg).toBe('');
  });

  it('"not approved yet" keeps the person on confirm with an alert, and they can press again', () => {
    let state = run(atConfirm(), { type: 'completePressed' });
    state = run(state, { type: 'workFailed', id: pendingId(state), failure: { status: 409, code: 'AUTH_PENDING' } });
    expect(state).toMatchObject({
      step: 'confirm',
      stepData: 'step',
      pending: null,
      alert: { kind: 'notApprovedYet' },
    });
    state = run(state, { type: 'alertDismissed' }, { type: 'completePressed' });
    expect(state.pending?.kind).toBe('complete');
  });

  it('an expired authentication returns to the provider choice and drops the vendor state', () => {
    for (const vendor of ['VENDOR_A', 'VENDOR_B'] as const) {
      let state = run(atConfirm(vendor), { type: 'completePressed' });
      state = run(state, { type: 'workFailed', id: pendingId(state), failure: { status: 410, code: 'AUTH_EXPIRED' } });
      expect(state).toMatchObject({
        step: 'simpleVerification',
        stepData: null,
        twoWayInfo: null,
        identityEnc: 'ENC',
        alert: { kind: 'authenticationExpired' },
      });
    }
  });

  it('a validation failure from the server returns to intro, where the back part must be typed again', () => {
    let state = run(atConfirm(), { type: 'completePressed' });
    state = run(state, {
      type: 'workFailed',
      id: pendingId(state),
      failure: { status: 400, code: 'VALIDATION_FAILED' },
    });
    expect(state).toMatchObject({
      step: 'intro',
      identityEnc: null,
      loginOrgCd: null,
      alert: { kind: 'invalidInput' },
    });
  });

  it('ignores actions while work is pending, so a double press sends one call', () => {
    const pressed = run(atConfirm(), { type: 'completePressed' });
    expect(run(pressed, { type: 'completePressed' })).toBe(pressed);
    expect(run(pressed, { type: 'backPressed' })).toBe(pressed);
  });

  it('ignores a late answer to work that was abandoned', () => {
    const started = run(atConfirm(), { type: 'completePressed' });
    const id = pendingId(started);
    const restarted = run(started, { type: 'restarted' });
    expect(run(restarted, { type: 'certificateIssued', id, preSignedUrl: 'late' })).toBe(restarted);
  });

  it('ignores events that do not belong to the current step', () => {
    const intro = initialFunnelState({ vendor: 'VENDOR_A' });
    expect(run(intro, { type: 'providerChosen', provider: 'provider_a' })).toBe(intro);
    expect(run(intro, { type: 'completePressed' })).toBe(intro);
    const confirm = atConfirm();
    expect(run(confirm, { type: 'fieldChanged', field: 'front', value: '1' })).toBe(confirm);
    expect(run(confirm, { type: 'documentChosen', document: 'family-relations' })).toBe(confirm);
  });

  it('goes back one step at a time, dropping what the later step produced', () => {
    let state = run(atConfirm(), { type: 'backPressed' });
    expect(state).toMatchObject({ step: 'simpleVerification', stepData: null, loginOrgCd: null });
    state = run(state, { type: 'backPressed' });
    expect(state).toMatchObject({ step: 'intro', identityEnc: null });
  });

  it('restarts from done with an empty form but the same vendor and assignment', () => {
    let state = run(atConfirm('VENDOR_B'), { type: 'completePressed' });
    state = run(state, { type: 'certificateIssued', id: pendingId(state), preSignedUrl: 'u' });
    state = run(state, { type: 'restarted' });
    expect(state).toMatchObject({ step: 'intro', vendor: 'VENDOR_B', preSignedUrl: null, identityEnc: null });
    expect(state.intro.front).toBe('');
  });
});
