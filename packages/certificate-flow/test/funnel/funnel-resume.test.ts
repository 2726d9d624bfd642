import type { CertificateAuthentication } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import type { FunnelEvent } from '../../src/funnel/funnel-events.js';
import { funnelReducer } from '../../src/funnel/funnel-reducer.js';
import { parseSnapshot, resumedState, snapshotOf } from '../../src/funnel/funnel-snapshot.js';
import { type FunnelEntry, type FunnelState, initialFunnelState } from '../../src/funnel/funnel-state.js';

const run = (state: FunnelState, ...events: FunnelEvent[]): FunnelState => events.reduce(funnelReducer, state);
const pendingId = (state: FunnelState): number => {
  if (!state.pending) throw new Error('expected pending work');
  return state.pending.id;
};

const BACK = '1234567';
const ID = '0b6f3c1e-5a2d-4f8b-9c7e-1d2a3b4c5d6e';
const ASSIGNMENT = '7f1c2b9e-3b1a-4a55-9d1e-0c7b6a1f2e3d';
const ENTRY: FunnelEntry = { vendor: 'VENDOR_B', assignmentId: ASSIGNMENT };

function atVerification(): FunnelState {
  let state = run(
    initialFunnelState(ENTRY),
    { type: 'fieldChanged', field: 'front', value: '900101' },
    { type: 'fieldChanged', field: 'back', value: BACK },
    { type: 'fieldChanged', field: 'sido', value: '서울특별시' },
    { type: 'fieldChanged', field: 'sigg', value: '강남구' },
    { type: 'introSubmitted' },
  );
  state = run(state, { type: 'identityEncrypted', id: pendingId(state), identityEnc: 'ENCRYPTED-BACK' });
  return state;
}

function atConfirm(): FunnelState {
  const state = run(atVerification(), { type: 'providerChosen', provider: 'provider_c' });
  return run(state, {
    type: 'authenticationStarted',
    id: pendingId(state),
    stepData: null,
    twoWayInfo: { jobIndex: 1, threadIndex: 2, jti: 'jti', twoWayTimestamp: 3 },
    authenticationId: ID,
  });
}

function atDone(): FunnelState {
  const state = run(atConfirm(), { type: 'completePressed' });
  return run(state, {
    type: 'certificateIssued',
    id: pendingId(state),
    preSignedUrl: 'https://objects.test/c.pdf?signature=s',
    link: { remainingSeconds: 600, receivedAt: 1_000 },
  });
}

/** A snapshot as it would be stored and read back. */
const roundTrip = (state: FunnelState) => parseSnapshot(JSON.stringify(snapshotOf(state)));

const reading = (change: Partial<CertificateAuthentication>): CertificateAuthentication => ({
  id: ID,
  document: 'resident-certificate',
  vendor: 'VENDOR_B',
  provider: 'provider_c',
  assignmentId: ASSIGNMENT,
  status: 'pending',
  approvalWindowSeconds: 270,
  approvalExpiresAt: '2025-01-01T00:04:30.000Z',
  certificate: null,
  ...change,
});

describe('what is kept across a reload', () => {
  it('keeps nothing on intro, where the number is being typed', () => {
    expect(snapshotOf(run(initialFunnelState(ENTRY), { type: 'fieldChanged', field: 'back', value: BACK }))).toBeNull();
  });

  it.each([
    ['simpleVerification', atVerification],
    ['confirm', atConfirm],
    ['done', atDone],
  ])('on %s: never the back part, its ciphertext or the link to the document', (step, at) => {
    const state = at();
    expect(state.step).toBe(step);
    const stored = JSON.stringify(snapshotOf(state));
    for (const secret of [BACK, 'ENCRYPTED-BACK', 'signature']) expect(stored).not.toContain(secret);
    expect(stored).not.toContain('"back"');
    expect(roundTrip(state)).toEqual(snapshotOf(state));
  });

  it('on done, only which authentication to read again', () => {
    expect(snapshotOf(atDone())).toEqual({
      version: 1,
      step: 'done',
      document: 'resident-certificate',
      vendor: 'VENDOR_B',
      assignmentId: ASSIGNMENT,
      authenticationId: ID,
    });
  });

  it.each([
    ['nothing', null],
    ['not JSON', '{'],
    ['another version', JSON.stringify({ ...snapshotOf(atDone()), version: 2 })],
    ['a back part slipped in', JSON.stringify({ ...snapshotOf(atVerification()), back: BACK })],
    [
      'a back part inside the details',
      JSON.stringify({ ...snapshotOf(atVerification()), intro: { ...atVerification().intro, back: BACK } }),
    ],
    ['an unknown step', JSON.stringify({ ...snapshotOf(atDone()), step: 'intro' })],
  ])('reads %s back as no snapshot', (_case, stored) => {
    expect(parseSnapshot(stored)).toBeNull();
  });
});

describe('resuming after a reload', () => {
  it('starts afresh for another entry (vendor or assignment)', () => {
    const snapshot = roundTrip(atConfirm());
    expect(resumedState({ vendor: 'VENDOR_A', assignmentId: ASSIGNMENT }, snapshot)).toBeNull();
    expect(resumedState({ vendor: 'VENDOR_B', assignmentId: null }, snapshot)).toBeNull();
    expect(resumedState(ENTRY, null)).toBeNull();
  });

  it('from the provider choice: the details again, and the back part asked for with the reason', () => {
    const state = resumedState(ENTRY, roundTrip(atVerification()));
    expect(state).toMatchObject({
      step: 'intro',
      intro: { front: '900101', back: '', sido: '서울특별시', sigg: '강남구' },
      identityEnc: null,
      backAgain: 'reloaded',
      pending: null,
    });
  });

  it('from confirm: reads the authentication; pending asks for the back part there and completes with one press', () => {
    let state = resumedState(ENTRY, roundTrip(atConfirm())) as FunnelState;
    expect(state).toMatchObject({ step: 'confirm', pending: { kind: 'resume' }, authenticationId: ID });
    state = run(state, {
      type: 'authenticationRead',
      id: pendingId(state),
      authentication: reading({}),
      receivedAt: 0,
    });
    expect(state).toMatchObject({ step: 'confirm', backAgain: 'reloaded', approvalWindowSeconds: 270, pending: null });

    // Complete without the back part: said inline, nothing sent.
    state = run(state, { type: 'fieldChanged', field: 'back', value: '1234' }, { type: 'completePressed' });
    expect(state).toMatchObject({
      pending: null,
      fieldErrors: { back: { key: 'validation.back', values: { count: 4 } } },
    });
    state = run(state, { type: 'fieldChanged', field: 'back', value: BACK }, { type: 'completePressed' });
    expect(state.pending?.kind).toBe('encrypt');
    state = run(state, { type: 'identityEncrypted', id: pendingId(state), identityEnc: 'AGAIN' });
    expect(state).toMatchObject({
      step: 'confirm',
      identityEnc: 'AGAIN',
      backAgain: null,
      pending: { kind: 'complete' },
    });
    expect(state.intro.back).toBe('');
    expect(state.twoWayInfo).toEqual({ jobIndex: 1, threadIndex: 2, jti: 'jti', twoWayTimestamp: 3 });
  });

  it('from confirm: issued meanwhile (the answer was lost in the reload) shows the document', () => {
    const state = resumedState(ENTRY, roundTrip(atConfirm())) as FunnelState;
    const link = {
      preSignedUrl: 'https://objects.test/again.pdf',
      expiresAt: '2025-01-01T00:10:00.000Z',
      remainingSeconds: 300,
    };
    expect(
      run(state, {
        type: 'authenticationRead',
        id: pendingId(state),
        authentication: reading({ status: 'issued', certificate: link }),
        receivedAt: 5_000,
      }),
    ).toMatchObject({
      step: 'done',
      preSignedUrl: link.preSignedUrl,
      certificateLink: { expiresAt: 305_000, minutes: 5 },
      stepData: null,
      twoWayInfo: null,
    });
  });

  it('from confirm: expired goes to the details with the window in the alert', () => {
    const state = resumedState(ENTRY, roundTrip(atConfirm())) as FunnelState;
    expect(
      run(state, {
        type: 'authenticationRead',
        id: pendingId(state),
        authentication: reading({ status: 'expired' }),
        receivedAt: 0,
      }),
    ).toMatchObject({
      step: 'intro',
      backAgain: 'reloaded',
      twoWayInfo: null,
      authenticationId: null,
      alert: { kind: 'authenticationExpired', values: { minutes: 4 } },
    });
  });

  it('from confirm: a read that fails leaves the second call to tell, once the back part is typed again', () => {
    const state = resumedState(ENTRY, roundTrip(atConfirm())) as FunnelState;
    expect(
      run(state, { type: 'workFailed', id: pendingId(state), failure: { status: 0, code: 'NETWORK_ERROR' } }),
    ).toMatchObject({ step: 'confirm', backAgain: 'reloaded', alert: null, pending: null });
  });

  it('from done: the link for what is left of it, or says it has passed; a failed read can be retried', () => {
    const state = resumedState(ENTRY, roundTrip(atDone())) as FunnelState;
    expect(state).toMatchObject({ step: 'done', pending: { kind: 'resume' }, preSignedUrl: null });
    const passed = reading({
      status: 'issued',
      certificate: { preSignedUrl: null, expiresAt: '2025-01-01T00:10:00.000Z', remainingSeconds: 0 },
    });
    expect(
      run(state, { type: 'authenticationRead', id: pendingId(state), authentication: passed, receivedAt: 0 }),
    ).toMatchObject({ step: 'done', preSignedUrl: null, certificateLink: { expiresAt: 0, minutes: 0 } });

    const offline = run(state, {
      type: 'workFailed',
      id: pendingId(state),
      failure: { status: 0, code: 'NETWORK_ERROR' },
    });
    expect(offline).toMatchObject({
      step: 'done',
      preSignedUrl: null,
      certificateLink: null,
      alert: { kind: 'network' },
    });
    expect(run(offline, { type: 'resumeRetried' }).pending?.kind).toBe('resume');
  });
});

describe('back, as the browser’s Back button sends it', () => {
  it('from the provider choice to the details, saying the back part must be typed again', () => {
    expect(run(atVerification(), { type: 'backPressed' })).toMatchObject({
      step: 'intro',
      identityEnc: null,
      backAgain: 'returned',
      intro: { front: '900101', back: '' },
    });
  });

  it('from a resumed confirm (no encrypted back part) to the details', () => {
    const snapshot = roundTrip(atConfirm());
    if (snapshot?.step !== 'confirm') throw new Error('expected a confirm snapshot');
    const state = resumedState(ENTRY, { ...snapshot, authenticationId: null });
    expect(run(state as FunnelState, { type: 'backPressed' })).toMatchObject({ step: 'intro', backAgain: 'reloaded' });
  });
});

describe('alerts that name what the server and the host said', () => {
  it('an expiry names the vendor’s window from the answer’s details', () => {
    const state = run(atConfirm(), { type: 'completePressed' });
    expect(
      run(state, {
        type: 'workFailed',
        id: pendingId(state),
        failure: { status: 410, code: 'AUTH_EXPIRED', details: { approvalWindowSeconds: 300 } },
      }),
    ).toMatchObject({
      step: 'simpleVerification',
      approvalWindowSeconds: 300,
      alert: { kind: 'authenticationExpired', message: 'alerts.authenticationExpired.message', values: { minutes: 5 } },
    });
  });

  it('an expiry without a window says so without a number', () => {
    const state = run(atConfirm(), { type: 'completePressed' });
    expect(
      run(state, { type: 'workFailed', id: pendingId(state), failure: { status: 410, code: 'AUTH_EXPIRED' } }).alert,
    ).toEqual({
      kind: 'authenticationExpired',
      title: 'alerts.authenticationExpired.title',
      message: 'alerts.authenticationExpired.messageWithoutLimit',
    });
  });

  it('"not certified" names the host’s menu when the host named one', () => {
    const named = run(
      { ...atVerification(), certificationMenu: '내 정보 > 본인인증' },
      { type: 'providerChosen', provider: 'provider_a' },
    );
    expect(
      run(named, { type: 'workFailed', id: pendingId(named), failure: { status: 403, code: 'NOT_CERTIFIED' } }).alert,
    ).toEqual({
      kind: 'notCertified',
      title: 'alerts.notCertified.title',
      message: 'alerts.notCertified.messageWithMenu',
      values: { menu: '내 정보 > 본인인증' },
    });
  });

  it('a lost connection is its own alert, and keeps the person where they were', () => {
    const state = run(atVerification(), { type: 'providerChosen', provider: 'provider_a' });
    expect(
      run(state, { type: 'workFailed', id: pendingId(state), failure: { status: 0, code: 'NETWORK_ERROR' } }),
    ).toMatchObject({ step: 'simpleVerification', identityEnc: 'ENCRYPTED-BACK', alert: { kind: 'network' } });
  });

  it('a refusal at the first call keeps the encrypted back part, so choosing again needs no retyping', () => {
    const state = run(atVerification(), { type: 'providerChosen', provider: 'provider_a' });
    expect(
      run(state, { type: 'workFailed', id: pendingId(state), failure: { status: 422, code: 'VENDOR_REJECTED' } }),
    ).toMatchObject({ step: 'simpleVerification', identityEnc: 'ENCRYPTED-BACK', alert: { kind: 'rejected' } });
  });
});

describe('resuming: the remaining cases', () => {
  const resumedAt = (step: 'confirm' | 'done') =>
    resumedState(ENTRY, roundTrip(step === 'confirm' ? atConfirm() : atDone())) as FunnelState;
  const PASSED = { expiresAt: 0, minutes: 0 };

  it.each(['pending', 'expired'] as const)('done, but the server reads it %s: nothing to offer', (status) => {
    const state = resumedAt('done');
    expect(
      run(state, {
        type: 'authenticationRead',
        id: pendingId(state),
        authentication: reading({ status }),
        receivedAt: 0,
      }),
    ).toMatchObject({ step: 'done', preSignedUrl: null, certificateLink: PASSED, pending: null });
  });

  it('issued without a link at all: its time has passed', () => {
    const state = resumedAt('confirm');
    expect(
      run(state, {
        type: 'authenticationRead',
        id: pendingId(state),
        authentication: reading({ status: 'issued', certificate: null }),
        receivedAt: 0,
      }),
    ).toMatchObject({ step: 'done', preSignedUrl: null, certificateLink: PASSED });
  });

  it('an authentication the server no longer knows: done has nothing to offer, confirm starts from the details', () => {
    const notFound = { status: 404, code: 'AUTHENTICATION_NOT_FOUND' };
    const done = resumedAt('done');
    expect(run(done, { type: 'workFailed', id: pendingId(done), failure: notFound })).toMatchObject({
      step: 'done',
      preSignedUrl: null,
      certificateLink: PASSED,
      alert: null,
    });
    const confirm = resumedAt('confirm');
    expect(run(confirm, { type: 'workFailed', id: pendingId(confirm), failure: notFound })).toMatchObject({
      step: 'intro',
      backAgain: 'reloaded',
      authenticationId: null,
      twoWayInfo: null,
      alert: { kind: 'authenticationExpired', message: 'alerts.authenticationExpired.messageWithoutLimit' },
    });
  });

  it('done whose read failed with an answer: the service, not the connection', () => {
    const state = resumedAt('done');
    expect(
      run(state, { type: 'workFailed', id: pendingId(state), failure: { status: 503, code: 'UNAVAILABLE' } }).alert
        ?.kind,
    ).toBe('unavailable');
  });

  it('ignores a late or foreign answer to the read', () => {
    const state = resumedAt('confirm');
    expect(
      run(state, { type: 'authenticationRead', id: pendingId(state) + 1, authentication: reading({}), receivedAt: 0 }),
    ).toBe(state);
  });

  it('on a resumed confirm only the back part can be typed; on an ordinary confirm nothing', () => {
    let resumed = resumedAt('confirm');
    resumed = run(resumed, {
      type: 'authenticationRead',
      id: pendingId(resumed),
      authentication: reading({}),
      receivedAt: 0,
    });
    expect(run(resumed, { type: 'fieldChanged', field: 'front', value: '010101' })).toBe(resumed);
    expect(run(resumed, { type: 'fieldChanged', field: 'back', value: '12' }).intro.back).toBe('12');
    const ordinary = atConfirm();
    expect(run(ordinary, { type: 'fieldChanged', field: 'back', value: '12' })).toBe(ordinary);
  });

  it('reads again only on done, without a link, with an id, and nothing in flight', () => {
    const failed = (() => {
      const state = resumedAt('done');
      return run(state, { type: 'workFailed', id: pendingId(state), failure: { status: 0, code: 'NETWORK_ERROR' } });
    })();
    expect(run(failed, { type: 'resumeRetried' }).pending).toEqual({ kind: 'resume', id: failed.sequence + 1 });
    for (const unready of [
      atDone(),
      atConfirm(),
      { ...failed, authenticationId: null },
      { ...failed, pending: { kind: 'resume' as const, id: 9 } },
    ]) {
      expect(run(unready, { type: 'resumeRetried' })).toBe(unready);
    }
  });

  it('an issued answer keeps how long its link lasts', () => {
    expect(atDone().certificateLink).toEqual({ expiresAt: 601_000, minutes: 10 });
  });
});
