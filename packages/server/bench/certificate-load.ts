/**
 * The far side of bench:certificates, in its own process so its CPU (RSA decryption in the
 * simulators, the users' own work) never shows up as the server's event-loop delay: both vendor
 * simulators (approval after 1 s) and the concurrent users that drive complete two-step flows.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type CertificateDocument, type CertificateVendor, RESPONSE_WRAPPER_KEY } from '@ferry/contracts';
import {
  generateVendorAAccount,
  generateVendorBAccount,
  signDevelopmentToken,
  VendorASimulator,
  VendorBSimulator,
  vendorASimulatorEnv,
  vendorBSimulatorEnv,
} from '@ferry/dev-tools';
import { encryptIdentityPart } from '../src/certificates/identity-crypto.js';

export type LoadMessage =
  | { type: 'flows'; baseUrl: string; secret: string; aesKey: string; users: number; approvalDelayMs: number }
  | {
      type: 'reads';
      baseUrl: string;
      secret: string;
      assignments: Array<{ userId: string; id: string }>;
      readsPerUser: number;
    }
  | { type: 'stop' };

export type LoadReport =
  | { type: 'ready'; env: Record<string, string> }
  | {
      type: 'done';
      completed: number;
      failures: string[];
      pendingRetries: number;
      requests: number;
      wallMs: number;
      /** This process's CPU (users and both simulators) during the run: it competes for the same cores. */
      cpuMs: number;
    };

const DOCUMENTS: CertificateDocument[] = ['resident-certificate', 'resident-abstract', 'family-relations'];
const send = (report: LoadReport) => process.send?.(report);

function body(document: CertificateDocument, vendor: CertificateVendor, aesKey: Buffer, state: object = {}) {
  const back = encryptIdentityPart('1572936', aesKey);
  const common = { vendor, loginOrgCd: 'provider_a', assignmentId: null, stepData: null, twoWayInfo: null, ...state };
  return document === 'family-relations'
    ? { ...common, rrn1: '880415', rrn2Enc: back, fthrNm: '홍길동' }
    : { ...common, birthDate: '880415', identityEnc: back, sido: '서울특별시', sigg: '강남구' };
}

async function flow(
  i: number,
  message: Extract<LoadMessage, { type: 'flows' }>,
  counters: { pending: number; requests: number },
) {
  // Users arrive spread over the first approval period, so all of them are in flight together
  // without every first call landing in the same millisecond (a burst no real audience produces).
  await sleep((i / message.users) * message.approvalDelayMs);
  const vendor: CertificateVendor = i % 2 === 0 ? 'VENDOR_A' : 'VENDOR_B';
  const document = DOCUMENTS[i % DOCUMENTS.length] as CertificateDocument;
  const aesKey = Buffer.from(message.aesKey, 'base64');
  const token = await signDevelopmentToken({ userId: `bench-${randomUUID()}`, secret: message.secret });
  const post = async (payload: object) => {
    counters.requests++;
    const response = await fetch(`${message.baseUrl}/v2/user/certificate/${document}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(payload),
    });
    return { status: response.status, json: (await response.json()) as Record<string, Record<string, unknown>> };
  };
  const first = await post(body(document, vendor, aesKey));
  if (first.status !== 200) throw new Error(`first call ${first.status} ${JSON.stringify(first.json)}`);
  const state = first.json[RESPONSE_WRAPPER_KEY[document]] ?? {};
  // The user approves on the phone; the client presses "complete" and repeats while AUTH_PENDING.
  await sleep(message.approvalDelayMs);
  for (let attempt = 0; attempt < 100; attempt++) {
    const second = await post(
      body(document, vendor, aesKey, { stepData: state.stepData, twoWayInfo: state.twoWayInfo }),
    );
    if (second.status === 409) {
      counters.pending++;
      await sleep(100);
      continue;
    }
    const url = second.json[RESPONSE_WRAPPER_KEY[document]]?.preSignedUrl;
    if (second.status !== 200 || typeof url !== 'string') throw new Error(`second call ${second.status}`);
    const pdf = Buffer.from(await (await fetch(url)).arrayBuffer());
    if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('not a PDF');
    return;
  }
  throw new Error('never approved');
}

async function reads(message: Extract<LoadMessage, { type: 'reads' }>, counters: { requests: number }) {
  await Promise.all(
    message.assignments.map(async ({ userId, id }, i) => {
      // Spread over one second like the flows' arrivals: a baseline taken as a burst of 200
      // requests in the same millisecond measured queueing behind that burst, not a read.
      await sleep((i / message.assignments.length) * 1000);
      const token = await signDevelopmentToken({ userId, secret: message.secret });
      for (let i = 0; i < message.readsPerUser; i++) {
        counters.requests++;
        const response = await fetch(`${message.baseUrl}/v2/user/assignments/${id}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        if (response.status !== 200) throw new Error(`read ${response.status}`);
        await response.arrayBuffer();
      }
    }),
  );
}

const approvalDelayMs = Number(process.env.BENCH_APPROVAL_DELAY_MS ?? 1000);
const accountA = generateVendorAAccount();
const accountB = await generateVendorBAccount();
const simulatorA = new VendorASimulator(accountA, { approvalDelayMs });
const simulatorB = new VendorBSimulator(accountB, { approvalDelayMs });
const [urlA, urlB] = await Promise.all([simulatorA.listen(), simulatorB.listen()]);

process.on('message', async (message: LoadMessage) => {
  if (message.type === 'stop') {
    await Promise.all([simulatorA.close(), simulatorB.close()]);
    process.exit(0);
  }
  const counters = { pending: 0, requests: 0 };
  const failures: string[] = [];
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let completed = 0;
  if (message.type === 'flows') {
    await Promise.all(
      Array.from({ length: message.users }, (_, i) =>
        flow(i, message, counters).then(
          () => {
            completed++;
          },
          (error: unknown) => {
            failures.push(error instanceof Error ? error.message : String(error));
          },
        ),
      ),
    );
  } else {
    await reads(message, counters).then(
      () => {
        completed = message.assignments.length;
      },
      (error: unknown) => {
        failures.push(String(error));
      },
    );
  }
  send({
    type: 'done',
    completed,
    failures,
    pendingRetries: counters.pending,
    requests: counters.requests,
    wallMs: performance.now() - started,
    cpuMs: ((cpu) => (cpu.user + cpu.system) / 1000)(process.cpuUsage(cpuBefore)),
  });
});

send({
  type: 'ready',
  env: { ...vendorASimulatorEnv(urlA, accountA), ...vendorBSimulatorEnv(urlB, accountB) },
});
