import { CERTIFICATE_DOCUMENTS, PROVIDER_CODES } from '@ferry/contracts';
import { generateVendorAAccount, SimulatorClock, VendorASimulator } from '@ferry/dev-tools';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VendorAClient } from '../../src/vendors/vendor-a/client.js';
import { VendorFailure } from '../../src/vendors/vendor-client.js';
import { control, deadline, vendorRequest } from './vendor-requests.js';

// The real VENDOR_A client against the VENDOR_A simulator, over HTTP, controlled through the
// simulator's own /_control interface.
describe('VENDOR_A client ↔ simulator', () => {
  const account = generateVendorAAccount();
  // A clock that only moves when told to: TTL and approval-delay tests never depend on real time.
  const simulator = new VendorASimulator(account, {
    approvalDelayMs: 'never',
    clock: new SimulatorClock(() => 1_800_000_000_000),
  });
  let client: VendorAClient;
  let url: string;
  beforeAll(async () => {
    url = await simulator.listen();
    client = new VendorAClient({ ...account, baseUrl: url });
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

  it.each(CERTIFICATE_DOCUMENTS)('%s: init → pending → approve → sign answers a PDF once', async (document) => {
    const request = vendorRequest(document);
    const state = await client.startAuthentication(request, deadline());
    expect(state).toEqual({ field: 'stepData', stepData: expect.any(String) });

    expect((await failureOf(client.completeIssuance(request, state, deadline()))).kind).toBe('pending');
    expect((await control(url, '/sessions/latest/approve')).status).toBe(200);

    const issued = await client.completeIssuance(request, state, deadline());
    expect(issued.pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(issued.pdf.subarray(-6).toString('latin1')).toBe('%%EOF\n');
    expect(issued.vendorReference).toMatch(/^SIM-A-/);

    // Replay protection: the same stepData never yields the document twice.
    const replay = await failureOf(client.completeIssuance(request, state, deadline()));
    expect(replay).toMatchObject({ kind: 'expired', vendorCode: 'STEP-USED' });
  });

  it.each(PROVIDER_CODES)('the simulator accepts the table code of %s', async (provider) => {
    const state = await client.startAuthentication(vendorRequest('resident-abstract', { provider }), deadline());
    expect(state.field).toBe('stepData');
  });

  it('sends the identity AES-128 encrypted with the account key, never plain', async () => {
    await client.startAuthentication(vendorRequest('resident-certificate'), deadline());
    const [ciphertext] = simulator.observedCiphertexts.slice(-1);
    expect(ciphertext).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(ciphertext ?? '', 'base64')).toHaveLength(16);
    expect(ciphertext).not.toContain('1572936');
  });

  it('a tampered stepData is state-invalid', async () => {
    const request = vendorRequest('resident-certificate');
    const state = await client.startAuthentication(request, deadline());
    if (state.field !== 'stepData') throw new Error('unexpected');
    const raw = Buffer.from(state.stepData, 'base64');
    raw[3] = (raw[3] ?? 0) ^ 1;
    const tampered = { field: 'stepData' as const, stepData: raw.toString('base64') };
    expect(await failureOf(client.completeIssuance(request, tampered, deadline()))).toMatchObject({
      kind: 'state-invalid',
      vendorCode: 'STEP-INVALID',
    });
  });

  it('a second call for another document or another person is refused', async () => {
    const request = vendorRequest('resident-certificate');
    const state = await client.startAuthentication(request, deadline());
    await control(url, '/sessions/latest/approve');
    expect((await failureOf(client.completeIssuance(vendorRequest('resident-abstract'), state, deadline()))).kind).toBe(
      'state-invalid',
    );
    expect(
      await failureOf(
        client.completeIssuance(vendorRequest('resident-certificate', { back: '2000000' }), state, deadline()),
      ),
    ).toMatchObject({ kind: 'rejected', vendorCode: 'LOGIN-001' });
  });

  it('expires after the 300 s TTL on the injectable clock', async () => {
    const request = vendorRequest('family-relations');
    const state = await client.startAuthentication(request, deadline());
    await control(url, '/sessions/latest/approve');
    expect((await control(url, '/clock', { advanceMs: 300_000 })).status).toBe(200);
    expect(await failureOf(client.completeIssuance(request, state, deadline()))).toMatchObject({
      kind: 'expired',
      vendorCode: 'STEP-EXPIRED',
    });
  });

  it('approves by itself after the approval delay', async () => {
    await control(url, '/approval-delay', { ms: 3000 }, 'PUT');
    const request = vendorRequest('resident-certificate');
    const state = await client.startAuthentication(request, deadline());
    await control(url, '/clock', { advanceMs: 2999 });
    expect((await failureOf(client.completeIssuance(request, state, deadline()))).kind).toBe('pending');
    await control(url, '/clock', { advanceMs: 1 });
    expect((await client.completeIssuance(request, state, deadline())).pdf.length).toBeGreaterThan(100);
    await control(url, '/approval-delay', { ms: 'never' }, 'PUT');
  });

  it.each([
    [undefined, 'AUTH-CANCEL'],
    ['LOGIN-999', 'LOGIN-999'],
  ])('a rejection (%s) is rejected with the vendor code', async (code, expected) => {
    const request = vendorRequest('resident-certificate');
    const state = await client.startAuthentication(request, deadline());
    const sessions = (await (await control(url, '/sessions', undefined, 'GET')).json()).sessions;
    expect(sessions).toEqual([expect.objectContaining({ status: 'pending', document: 'resident-certificate' })]);
    expect(JSON.stringify(sessions)).not.toContain('880415');
    await control(url, `/sessions/${sessions[0].id}/reject`, code ? { code } : {});
    expect(await failureOf(client.completeIssuance(request, state, deadline()))).toMatchObject({
      kind: 'rejected',
      vendorCode: expected,
    });
  });

  it('wrong account credentials are a vendor failure, not the user’s', async () => {
    const wrong = new VendorAClient({ ...account, hkey: 'not-the-key', baseUrl: url });
    expect(await failureOf(wrong.startAuthentication(vendorRequest('resident-certificate'), deadline()))).toMatchObject(
      {
        kind: 'unavailable',
        vendorCode: 'HDM006',
      },
    );
  });

  describe('faults injected through the control endpoint', () => {
    it.each([
      ['a 5xx', { kind: 'status', status: 503 }, 'unavailable'],
      ['a garbled body', { kind: 'garbled' }, 'unavailable'],
      ['a dropped connection', { kind: 'reset' }, 'unavailable'],
      ['a connection that hangs', { kind: 'hang' }, 'timeout'],
      ['an answer later than the deadline', { kind: 'delay', ms: 1000 }, 'timeout'],
    ])('%s → %s', async (_name, fault, kind) => {
      expect((await control(url, '/faults', { fault })).status).toBe(200);
      // A short deadline only where the fault is about the deadline: the faults that answer at once
      // must come back as they are however slow the machine, not as a timeout.
      const limit = kind === 'timeout' ? deadline(300) : deadline();
      const failure = await failureOf(client.startAuthentication(vendorRequest('resident-certificate'), limit));
      expect(failure.kind).toBe(kind);
      // The client gave up because the caller's deadline passed (the vendor never answered in time),
      // not through some limit of its own.
      if (kind === 'timeout') expect(limit.signal.aborted).toBe(true);
      // The fault was one-shot: the next call succeeds.
      expect((await client.startAuthentication(vendorRequest('resident-certificate'), deadline())).field).toBe(
        'stepData',
      );
    });

    it('standing latency slows every call but stays within the deadline', async () => {
      await control(url, '/latency', { ms: 50 }, 'PUT');
      const started = performance.now();
      await client.startAuthentication(vendorRequest('resident-certificate'), deadline());
      expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    });

    it('counts vendor calls, not control calls', async () => {
      const before = simulator.calls.count;
      await client.startAuthentication(vendorRequest('resident-certificate'), deadline());
      await control(url, '/sessions', undefined, 'GET');
      expect((await (await control(url, '/calls', undefined, 'GET')).json()).count).toBe(before + 1);
    });
  });
});
