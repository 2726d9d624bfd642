import { CERTIFICATE_DOCUMENTS, PROVIDER_CODES } from '@ferry/contracts';
import { decodeUrlEncodedJson } from '@ferry/contracts/vendors';
import { generateVendorBAccount, SimulatorClock, VendorBSimulator } from '@ferry/dev-tools';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VendorBClient } from '../../src/vendors/vendor-b/client.js';
import { type VendorAuthState, VendorFailure } from '../../src/vendors/vendor-client.js';
import { control, deadline, vendorRequest } from './vendor-requests.js';

// The real VENDOR_B client against the VENDOR_B simulator, over HTTP, controlled through the
// simulator's own /_control interface.
describe('VENDOR_B client ↔ simulator', async () => {
  const account = await generateVendorBAccount();
  // A clock that only moves when told to: TTL and approval-delay tests never depend on real time.
  const simulator = new VendorBSimulator(account, {
    approvalDelayMs: 'never',
    clock: new SimulatorClock(() => 1_800_000_000_000),
  });
  let url: string;
  let client: VendorBClient;
  const clientFor = (overrides: { clientSecret?: string } = {}) =>
    new VendorBClient({
      baseUrl: url,
      tokenUrl: `${url}/oauth/token`,
      clientId: account.clientId,
      clientSecret: overrides.clientSecret ?? account.clientSecret,
      publicKey: account.publicKey,
    });
  beforeAll(async () => {
    url = await simulator.listen();
    client = clientFor();
  });
  afterEach(async () => {
    await control(url, '/reset');
  });
  afterAll(async () => simulator.close());

  const failureOf = async (promise: Promise<unknown>): Promise<VendorFailure> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VendorFailure);
    return error as VendorFailure;
  };
  const twoWayInfoOf = (state: VendorAuthState) => {
    if (state.field !== 'twoWayInfo') throw new Error('expected twoWayInfo');
    return state.twoWayInfo;
  };

  it.each(CERTIFICATE_DOCUMENTS)('%s: CF-03002 → pending → approve → CF-00000 with the PDF, once', async (document) => {
    const request = vendorRequest(document);
    const state = await client.startAuthentication(request, deadline());
    expect(twoWayInfoOf(state)).toEqual({
      jobIndex: 0,
      threadIndex: 0,
      jti: expect.stringMatching(/^[0-9a-f]{24}$/),
      twoWayTimestamp: 1_800_000_000_000,
    });

    expect(await failureOf(client.completeIssuance(request, state, deadline()))).toMatchObject({
      kind: 'pending',
      vendorCode: 'CF-03002',
    });
    expect((await control(url, `/sessions/${twoWayInfoOf(state).jti}/approve`)).status).toBe(200);

    const issued = await client.completeIssuance(request, state, deadline());
    expect(issued.pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(issued.vendorReference).toMatch(/^SIM-B-/);

    expect(await failureOf(client.completeIssuance(request, state, deadline()))).toMatchObject({
      kind: 'expired',
      vendorCode: 'CF-00025',
    });
  });

  it.each(PROVIDER_CODES)('the simulator accepts the table code of %s', async (provider) => {
    const state = await client.startAuthentication(vendorRequest('resident-abstract', { provider }), deadline());
    expect(state.field).toBe('twoWayInfo');
  });

  it('answers URL-encoded JSON and takes the identity RSA-encrypted (a new ciphertext every call)', async () => {
    await client.startAuthentication(vendorRequest('resident-certificate'), deadline());
    await client.startAuthentication(vendorRequest('resident-certificate'), deadline());
    const [first, second] = simulator.observedCiphertexts.slice(-2);
    expect(Buffer.from(first ?? '', 'base64')).toHaveLength(256);
    expect(first).not.toBe(second);

    const token = await (
      await fetch(`${url}/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${account.clientId}:${account.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials&scope=read',
      })
    ).json();
    const raw = await (
      await fetch(`${url}/v1/kr/public/mw/resident-registration-copy/issuance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: encodeURIComponent('{"organization":"0001"}'),
      })
    ).text();
    expect(raw.startsWith('%7B')).toBe(true);
    expect(decodeUrlEncodedJson(raw)).toMatchObject({ result: { code: 'CF-00007' } });
  });

  it('fetches one OAuth token for many calls, and renews it once on 401', async () => {
    const fresh = clientFor();
    const before = simulator.tokenCalls.count;
    await Promise.all(
      [1, 2, 3].map(() => fresh.startAuthentication(vendorRequest('resident-certificate'), deadline())),
    );
    expect(simulator.tokenCalls.count).toBe(before + 1);

    expect((await control(url, '/revoke-tokens')).status).toBe(200);
    await fresh.startAuthentication(vendorRequest('resident-certificate'), deadline());
    expect(simulator.tokenCalls.count).toBe(before + 2);
  });

  it('renews a token that is about to expire', async () => {
    const fresh = clientFor();
    const before = simulator.tokenCalls.count;
    await fresh.startAuthentication(vendorRequest('resident-certificate'), deadline());
    // The client reads the JWT exp; the simulator's tokens live 7 days.
    await control(url, '/clock', { advanceMs: 7 * 24 * 3600 * 1000 });
    await fresh.startAuthentication(vendorRequest('resident-certificate'), deadline());
    expect(simulator.tokenCalls.count).toBeGreaterThanOrEqual(before + 2);
  });

  it('wrong client credentials are a vendor failure', async () => {
    const wrong = clientFor({ clientSecret: 'not-the-secret' });
    expect(await failureOf(wrong.startAuthentication(vendorRequest('resident-certificate'), deadline()))).toMatchObject(
      {
        kind: 'unavailable',
        vendorCode: 'HTTP 401',
      },
    );
  });

  it.each([
    ['jti', { jti: 'ffffffffffffffffffffffff' }],
    ['twoWayTimestamp', { twoWayTimestamp: 1 }],
    ['jobIndex', { jobIndex: 7 }],
  ])('a tampered %s is CF-03003 (state-invalid)', async (_member, change) => {
    const request = vendorRequest('resident-certificate');
    const state = await client.startAuthentication(request, deadline());
    await control(url, '/sessions/latest/approve');
    const tampered = { field: 'twoWayInfo' as const, twoWayInfo: { ...twoWayInfoOf(state), ...change } };
    expect(await failureOf(client.completeIssuance(request, tampered, deadline()))).toMatchObject({
      kind: 'state-invalid',
      vendorCode: 'CF-03003',
    });
  });

  it('another person on the second call is refused (CF-12835)', async () => {
    const state = await client.startAuthentication(vendorRequest('resident-certificate'), deadline());
    await control(url, '/sessions/latest/approve');
    const other = vendorRequest('resident-certificate', { back: '2000000' });
    expect(await failureOf(client.completeIssuance(other, state, deadline()))).toMatchObject({
      kind: 'rejected',
      vendorCode: 'CF-12835',
    });
  });

  it('expires after the 270 s two-way lifetime (CF-12001)', async () => {
    const request = vendorRequest('family-relations');
    const state = await client.startAuthentication(request, deadline());
    await control(url, '/sessions/latest/approve');
    await control(url, '/clock', { advanceMs: 269_999 });
    await control(url, '/approval-delay', { ms: 0 }, 'PUT');
    const state2 = await client.startAuthentication(request, deadline());
    expect((await client.completeIssuance(request, state2, deadline())).pdf.length).toBeGreaterThan(100);
    await control(url, '/clock', { advanceMs: 1 });
    expect(await failureOf(client.completeIssuance(request, state, deadline()))).toMatchObject({
      kind: 'expired',
      vendorCode: 'CF-12001',
    });
    await control(url, '/approval-delay', { ms: 'never' }, 'PUT');
  });

  it.each([
    [undefined, 'CF-12102'],
    ['CF-12835', 'CF-12835'],
  ])('a rejection (%s) is rejected with the vendor code', async (code, expected) => {
    const request = vendorRequest('resident-abstract');
    const state = await client.startAuthentication(request, deadline());
    await control(url, '/sessions/latest/reject', code ? { code } : {});
    expect(await failureOf(client.completeIssuance(request, state, deadline()))).toMatchObject({
      kind: 'rejected',
      vendorCode: expected,
    });
  });

  describe('faults injected through the control endpoint', () => {
    it.each([
      ['a 5xx', { kind: 'status', status: 500 }, 'unavailable'],
      ['a garbled body', { kind: 'garbled' }, 'unavailable'],
      ['a dropped connection', { kind: 'reset' }, 'unavailable'],
      ['a connection that hangs', { kind: 'hang' }, 'timeout'],
      ['an answer later than the deadline', { kind: 'delay', ms: 1000 }, 'timeout'],
    ])('%s → %s', async (_name, fault, kind) => {
      // A token first, so the fault hits the product call.
      await client.startAuthentication(vendorRequest('resident-certificate'), deadline());
      expect((await control(url, '/faults', { fault })).status).toBe(200);
      // A short deadline only where the fault is about the deadline: the faults that answer at once
      // must come back as they are however slow the machine, not as a timeout.
      const limit = kind === 'timeout' ? deadline(300) : deadline();
      const failure = await failureOf(client.startAuthentication(vendorRequest('resident-certificate'), limit));
      expect(failure.kind).toBe(kind);
      // The client gave up because the caller's deadline passed (the vendor never answered in time),
      // not through some limit of its own.
      if (kind === 'timeout') expect(limit.signal.aborted).toBe(true);
      expect((await client.startAuthentication(vendorRequest('resident-certificate'), deadline())).field).toBe(
        'twoWayInfo',
      );
    });
  });
});
