import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CertificateDocument } from '@ferry/contracts';
import { generateVendorAAccount, generateVendorBAccount, VendorASimulator, VendorBSimulator } from '@ferry/dev-tools';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HANG_GUARD_MS } from '../../../../../../../test/support/hang-guard.cjs';
import {
  bodyFor,
  type CertificateTestServer,
  newUser,
  secondBodyFor,
  startCertificateServer,
  unwrap,
} from '../../../../support/certificates.js';
import { describeEachEngine } from '../../../../support/engines.js';

// Concurrent duplicates of a second call after the person approved (a double click, a client
// retrying a slow call): one call completes at the vendor, every duplicate waits for it and
// answers its result, instead of 409 AUTH_PENDING ("not approved yet"). The vendor's answer is
// held by the simulator's `hold` latch until every duplicate is known to wait, so no sleep orders
// anything.

const DUPLICATES = 5;
/** The vendors these rows run on, one of each second-call style, each with its document. */
type TestedVendor = 'VENDOR_A' | 'VENDOR_B';
const DOCUMENT_OF: Record<TestedVendor, CertificateDocument> = {
  VENDOR_A: 'resident-certificate',
  VENDOR_B: 'family-relations',
};

const control = (server: CertificateTestServer, vendor: TestedVendor, route: string, body?: unknown) =>
  fetch(`${server.simulators[vendor].url}/_control${route}`, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A user who made the first call and approved in the provider app. */
async function approvedFirstCall(server: CertificateTestServer, vendor: TestedVendor) {
  const document = DOCUMENT_OF[vendor];
  const userId = newUser();
  const token = await server.tokenFor(userId);
  const first = await unwrap(document, await server.post(document, bodyFor(document, { vendor }), token));
  await control(server, vendor, '/sessions/latest/approve');
  const second = () => server.post(document, secondBodyFor(document, first, { vendor }), token);
  return { document, userId, token, first, second };
}

const issuancesOf = (server: CertificateTestServer, userId: string) =>
  server.app.database.db.selectFrom('certificate_issuances').selectAll().where('user_id', '=', userId).execute();

const waiting = (server: CertificateTestServer) => server.app.certificates.issuance.waitingDuplicates;

/** Pretends another (dead or slow) instance holds the completion lease of this user's state. */
const holdLease = (server: CertificateTestServer, userId: string, leaseUntil: number) =>
  server.app.database.db
    .updateTable('certificate_authentication_states')
    .set({ status: 'completing', lease_until: leaseUntil })
    .where('user_id', '=', userId)
    .execute();

describeEachEngine('concurrent duplicates of a second call', (engine) => {
  let server: CertificateTestServer;
  beforeAll(async () => {
    server = await startCertificateServer(engine);
  });
  afterEach(async () => {
    for (const vendor of ['VENDOR_A', 'VENDOR_B'] as const) await control(server, vendor, '/reset');
  });
  afterAll(async () => server?.close());

  describe.each(['VENDOR_A', 'VENDOR_B'] as const)('%s', (vendor) => {
    it(`${DUPLICATES} identical second calls in flight → all 200 with the one issuance, one vendor call`, async () => {
      const { document, userId, second } = await approvedFirstCall(server, vendor);
      await control(server, vendor, '/faults', { fault: { kind: 'hold' } });
      const calls = server.vendorCalls();

      const responses = Array.from({ length: DUPLICATES }, () => second());
      // One call is at the vendor (held), every other one waits for it in this process.
      await vi.waitFor(
        () => {
          expect(server.simulators[vendor].faults.held).toBe(1);
          expect(waiting(server).inProcess).toBe(DUPLICATES - 1);
        },
        { timeout: HANG_GUARD_MS, interval: 10 },
      );
      expect(await (await control(server, vendor, '/release')).json()).toEqual({ released: 1 });

      const answers = await Promise.all(responses);
      expect(answers.map((response) => response.status)).toEqual(Array(DUPLICATES).fill(200));
      const bodies = await Promise.all(answers.map((response) => unwrap(document, response)));
      // The waiters answer the result of the call they waited for: the same body, the same URL.
      for (const body of bodies) expect(body).toEqual(bodies[0]);
      expect(bodies[0]).toEqual({ preSignedUrl: expect.stringMatching(/^http/), stepData: null, twoWayInfo: null });
      expect(server.vendorCalls()).toBe(calls + 1);
      expect(await issuancesOf(server, userId)).toHaveLength(1);
      const pdf = Buffer.from(await (await fetch(bodies[0]?.preSignedUrl as string)).arrayBuffer());
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(waiting(server)).toEqual({ inProcess: 0, onLease: 0 });
    });

    it('when the call in flight fails, every duplicate gets the same error and nothing is stored', async () => {
      const { userId, second } = await approvedFirstCall(server, vendor);
      await control(server, vendor, '/faults', { fault: { kind: 'hold' } });
      const calls = server.vendorCalls();

      const responses = Array.from({ length: DUPLICATES }, () => second());
      await vi.waitFor(
        () => {
          expect(server.simulators[vendor].faults.held).toBe(1);
          expect(waiting(server).inProcess).toBe(DUPLICATES - 1);
        },
        { timeout: HANG_GUARD_MS, interval: 10 },
      );
      // The person cancels in the provider app while the vendor call is held (`latest` names the
      // newest pending session; this one is approved, so by id).
      const { sessions } = await (await fetch(`${server.simulators[vendor].url}/_control/sessions`)).json();
      const session = sessions.at(-1) as { id: string; status: string };
      expect(session.status).toBe('approved');
      expect((await control(server, vendor, `/sessions/${session.id}/reject`)).status).toBe(200);
      await control(server, vendor, '/release');

      const answers = await Promise.all(responses);
      expect(answers.map((response) => response.status)).toEqual(Array(DUPLICATES).fill(422));
      const errors = await Promise.all(answers.map(async (response) => (await response.json()).error));
      for (const error of errors) {
        expect(error).toEqual({
          code: 'VENDOR_REJECTED',
          message: expect.any(String),
          details: { vendor, vendorCode: vendor === 'VENDOR_A' ? 'AUTH-CANCEL' : 'CF-12102' },
        });
      }
      expect(server.vendorCalls()).toBe(calls + 1);
      expect(await issuancesOf(server, userId)).toHaveLength(0);
    });
  });

  it('a duplicate waiting on a lease held elsewhere proceeds once it is given back', async () => {
    const vendor = 'VENDOR_A';
    const { document, userId, second } = await approvedFirstCall(server, vendor);
    await holdLease(server, userId, Date.now() + 60_000);
    const calls = server.vendorCalls();

    const response = second();
    await vi.waitFor(() => expect(waiting(server).onLease).toBe(1), { timeout: HANG_GUARD_MS, interval: 10 });
    expect(server.vendorCalls()).toBe(calls);
    // The holder failed and gave the lease back: the waiting call claims it and completes itself.
    await server.app.database.db
      .updateTable('certificate_authentication_states')
      .set({ status: 'pending', lease_until: null })
      .where('user_id', '=', userId)
      .execute();

    const answer = await response;
    expect(answer.status).toBe(200);
    expect((await unwrap(document, answer)).preSignedUrl).toMatch(/^http/);
    expect(server.vendorCalls()).toBe(calls + 1);
    expect(await issuancesOf(server, userId)).toHaveLength(1);
  });
});

describeEachEngine('the wait for a duplicate is bounded', (engine) => {
  // The wait alone is short; the vendor keeps its default timeout, so a loaded machine cannot turn
  // the vendor calls around it into 504s.
  const DUPLICATE_WAIT_MS = 400;
  let server: CertificateTestServer;
  beforeAll(async () => {
    server = await startCertificateServer(engine, { env: { CERT_DUPLICATE_WAIT_MS: String(DUPLICATE_WAIT_MS) } });
  });
  afterAll(async () => server?.close());

  it('a lease that stays held past the wait answers 409 AUTH_PENDING, as without waiting', async () => {
    const { userId, second } = await approvedFirstCall(server, 'VENDOR_B');
    await holdLease(server, userId, Date.now() + 60_000);
    const calls = server.vendorCalls();

    const started = performance.now();
    const response = await second();
    expect(performance.now() - started).toBeGreaterThanOrEqual(DUPLICATE_WAIT_MS - 50);
    expect(response.status).toBe(409);
    expect(response.headers.get('retry-after')).toBe('2');
    expect((await response.json()).error).toMatchObject({ code: 'AUTH_PENDING', details: { retryable: true } });
    expect(server.vendorCalls()).toBe(calls);
    expect(await issuancesOf(server, userId)).toHaveLength(0);

    // Its holder died: once the lease runs out, the same call completes.
    await holdLease(server, userId, Date.now() - 1);
    expect((await second()).status).toBe(200);
  });
});

// Two servers on one database, talking to the same vendors: a duplicate that lands on the instance
// not holding the lease waits for the lease to resolve and answers the stored issuance.
describeEachEngine('concurrent duplicates across instances', (engine) => {
  // SQLite serves one instance; scale-out is PostgreSQL's (docs/certificates.md "Scale-out").
  if (engine !== 'postgres') {
    it.skip('needs PostgreSQL');
    return;
  }
  let vendors: { VENDOR_A: VendorASimulator; VENDOR_B: VendorBSimulator };
  let dataDir: string;
  let first: CertificateTestServer;
  let other: CertificateTestServer;

  beforeAll(async () => {
    vendors = {
      VENDOR_A: new VendorASimulator(generateVendorAAccount(), { approvalDelayMs: 'never' }),
      VENDOR_B: new VendorBSimulator(await generateVendorBAccount(), { approvalDelayMs: 'never' }),
    };
    await Promise.all([vendors.VENDOR_A.listen(), vendors.VENDOR_B.listen()]);
    // One object store too, as instances behind one name share S3 (signed with one secret).
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-shared-data-'));
    const env = { DATA_DIR: dataDir, OBJECT_URL_SIGNING_SECRET: randomBytes(32).toString('base64url') };
    first = await startCertificateServer(engine, { vendors, env });
    other = await startCertificateServer(engine, { vendors, env, database: first.database });
  });
  afterAll(async () => {
    await other?.close();
    await first?.close();
    await Promise.all(Object.values(vendors ?? {}).map((simulator) => simulator.close()));
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['VENDOR_A', 'VENDOR_B'] as const)(
    '%s: duplicates on both instances → all 200 with the one issuance, one vendor call',
    async (vendor) => {
      const { document, userId, token, first: firstAnswer } = await approvedFirstCall(first, vendor);
      const second = (server: CertificateTestServer) =>
        server.post(document, secondBodyFor(document, firstAnswer, { vendor }), token);
      await control(first, vendor, '/faults', { fault: { kind: 'hold' } });
      const calls = first.vendorCalls();

      // The first instance takes the lease and is held at the vendor; then the duplicates arrive.
      const holder = second(first);
      await vi.waitFor(() => expect(vendors[vendor].faults.held).toBe(1), { timeout: HANG_GUARD_MS, interval: 10 });
      const sameInstance = [second(first)];
      const elsewhere = Array.from({ length: DUPLICATES - 2 }, () => second(other));
      await vi.waitFor(
        () => {
          expect(waiting(first).inProcess).toBe(1);
          expect(waiting(other).onLease).toBe(DUPLICATES - 2);
        },
        { timeout: HANG_GUARD_MS, interval: 10 },
      );
      await control(first, vendor, '/release');

      const answers = await Promise.all([holder, ...sameInstance, ...elsewhere]);
      expect(answers.map((response) => response.status)).toEqual(Array(DUPLICATES).fill(200));
      const urls = await Promise.all(
        answers.map(async (response) => (await unwrap(document, response)).preSignedUrl as string),
      );
      // One issuance: every answer names its PDF (a fresh signature from the other instance).
      const [issuance, ...more] = await issuancesOf(first, userId);
      expect(more).toHaveLength(0);
      for (const url of urls) expect(new URL(url).pathname).toBe(`/objects/${issuance?.object_key}`);
      expect(first.vendorCalls()).toBe(calls + 1);
      const pdfs = await Promise.all(urls.map(async (url) => Buffer.from(await (await fetch(url)).arrayBuffer())));
      expect(pdfs[0]?.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      for (const pdf of pdfs) expect(pdf.equals(pdfs[0] as Buffer)).toBe(true);
    },
  );
});
