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

const filledIntroEvents = (): FunnelEvent[] => [
  { type: 'fieldChanged', field: 'front', value: '900101' },
  { type: 'fieldChanged', field: 'back', value: '1234567' },
  { type: 'fieldChanged', field: 'sido', value: '서울특별시' },
  { type: 'fieldChanged', field: 'sigg', value: '강남구' },
];

function filledIntro(vendor: 'VENDOR_A' | 'VENDOR_B' = 'VENDOR_A'): FunnelState {
  return run(initialFunnelState({ vendor }), ...filledIntroEvents());
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

  it('keeps invalid input on intro with inline field errors only (no alert on top), and starts no work', () => {
    const state = run(initialFunnelState({ vendor: 'VENDOR_A' }), { type: 'introSubmitted' });
    expect(state.step).toBe('intro');
    expect(state.pending).toBeNull();
    expect(Object.keys(state.fieldErrors).sort()).toEqual(['back', 'front', 'sido']);
    expect(state.alert).toBeNull();
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
      backAgain: 'returned',
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
    expect(run(confirm, { type: 'introSubmitted' })).toBe(confirm);
    expect(run(confirm, { type: 'providerChosen', provider: 'provider_b' })).toBe(confirm);
    let done = run(confirm, { type: 'completePressed' });
    done = run(done, { type: 'certificateIssued', id: pendingId(done), preSignedUrl: 'u' });
    for (const event of [
      { type: 'introSubmitted' },
      { type: 'providerChosen', provider: 'provider_b' },
      { type: 'completePressed' },
      { type: 'fieldChanged', field: 'front', value: '1' },
    ] satisfies FunnelEvent[]) {
      expect(run(done, event)).toBe(done);
    }
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

  it('numbers the pieces of work 1, 2, 3 … and never reuses a number, also after a restart', () => {
    let state = run(filledIntro(), { type: 'introSubmitted' });
    expect(state.pending).toEqual({ kind: 'encrypt', id: 1 });
    state = run(
      state,
      { type: 'identityEncrypted', id: 1, identityEnc: 'ENC' },
      { type: 'providerChosen', provider: 'provider_a' },
    );
    expect(state.pending).toEqual({ kind: 'start', id: 2 });
    state = run(
      state,
      { type: 'authenticationStarted', id: 2, stepData: 'S', twoWayInfo: null },
      { type: 'completePressed' },
    );
    expect(state.pending).toEqual({ kind: 'complete', id: 3 });
    state = run(state, { type: 'restarted' }, ...filledIntroEvents(), { type: 'introSubmitted' });
    expect(state.pending).toEqual({ kind: 'encrypt', id: 4 });
  });

  it('dismissing an alert clears it and changes nothing else', () => {
    const confirmAlerted = run(atConfirm(), { type: 'completePressed' });
    const failed = run(confirmAlerted, {
      type: 'workFailed',
      id: pendingId(confirmAlerted),
      failure: { status: 409, code: 'AUTH_PENDING' },
    });
    expect(run(failed, { type: 'alertDismissed' })).toEqual({ ...failed, alert: null });
  });

  it('choosing a document on intro switches it and clears the field errors, keeping the input', () => {
    let state = run(filledIntro(), { type: 'fieldChanged', field: 'front', value: '' }, { type: 'introSubmitted' });
    expect(state.fieldErrors.front).toBeDefined();
    state = run(state, { type: 'documentChosen', document: 'family-relations' });
    expect(state).toMatchObject({ step: 'intro', document: 'family-relations', fieldErrors: {}, pending: null });
    expect(state.intro.back).toBe('1234567');
  });

  it('setting the province to the one already chosen keeps the district', () => {
    const state = run(filledIntro(), { type: 'fieldChanged', field: 'sido', value: '서울특별시' });
    expect(state.intro).toMatchObject({ sido: '서울특별시', sigg: '강남구' });
  });

  describe("double presses: while work is pending, the person's actions are ignored", () => {
    const encrypting = () => run(filledIntro(), { type: 'introSubmitted' });
    const starting = () => {
      const intro = encrypting();
      return run(
        intro,
        { type: 'identityEncrypted', id: pendingId(intro), identityEnc: 'ENC' },
        { type: 'providerChosen', provider: 'provider_a' },
      );
    };

    it.each<[string, FunnelEvent]>([
      ['introSubmitted', { type: 'introSubmitted' }],
      ['fieldChanged', { type: 'fieldChanged', field: 'front', value: '111111' }],
      ['documentChosen', { type: 'documentChosen', document: 'family-relations' }],
      ['backPressed', { type: 'backPressed' }],
    ])('on intro, while encrypting: %s', (_name, event) => {
      const pending = encrypting();
      expect(pending).toMatchObject({ step: 'intro', pending: { kind: 'encrypt' } });
      expect(run(pending, event)).toBe(pending);
    });

    it.each<[string, FunnelEvent]>([
      ['providerChosen', { type: 'providerChosen', provider: 'provider_b' }],
      ['backPressed', { type: 'backPressed' }],
      ['completePressed', { type: 'completePressed' }],
    ])('on simpleVerification, while starting: %s', (_name, event) => {
      const pending = starting();
      expect(pending).toMatchObject({ step: 'simpleVerification', pending: { kind: 'start' } });
      expect(run(pending, event)).toBe(pending);
    });

    it('a provider cannot be chosen without the encrypted identity', () => {
      const noIdentity: FunnelState = { ...starting(), pending: null, identityEnc: null };
      expect(run(noIdentity, { type: 'providerChosen', provider: 'provider_b' })).toBe(noIdentity);
    });
  });

  describe('stale answers: only the answer to the pending work counts', () => {
    const encrypting = () => run(filledIntro(), { type: 'introSubmitted' });
    const starting = () => {
      const intro = encrypting();
      return run(
        intro,
        { type: 'identityEncrypted', id: pendingId(intro), identityEnc: 'ENC' },
        { type: 'providerChosen', provider: 'provider_a' },
      );
    };
    const completing = () => run(atConfirm(), { type: 'completePressed' });
    const idle = () => atConfirm();

    const answers = (id: number): Array<[string, FunnelEvent]> => [
      ['identityEncrypted', { type: 'identityEncrypted', id, identityEnc: 'LATE' }],
      ['authenticationStarted', { type: 'authenticationStarted', id, stepData: 'LATE', twoWayInfo: null }],
      ['certificateIssued', { type: 'certificateIssued', id, preSignedUrl: 'late' }],
      ['workFailed', { type: 'workFailed', id, failure: { status: 410, code: 'AUTH_EXPIRED' } }],
    ];

    it.each([
      ['encrypt', encrypting],
      ['start', starting],
      ['complete', completing],
    ] as const)('while %s is pending, an answer with another id is ignored', (_kind, make) => {
      const pending = make();
      const id = pendingId(pending);
      for (const other of [id - 1, id + 1]) {
        for (const [, event] of answers(other)) expect(run(pending, event)).toBe(pending);
      }
    });

    it('with no work pending, every answer is ignored', () => {
      const state = idle();
      expect(state.pending).toBeNull();
      for (const id of [0, state.sequence, state.sequence + 1]) {
        for (const [, event] of answers(id)) expect(run(state, event)).toBe(state);
      }
    });
  });

  it('back does nothing on intro, and starts a new request from done', () => {
    const intro = filledIntro();
    expect(run(intro, { type: 'backPressed' })).toBe(intro);
    let done = run(atConfirm(), { type: 'completePressed' });
    done = run(done, { type: 'certificateIssued', id: pendingId(done), preSignedUrl: 'u' });
    expect(done.step).toBe('done');
    expect(run(done, { type: 'backPressed' })).toEqual(run(done, { type: 'restarted' }));
  });
});
