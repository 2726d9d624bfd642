import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ObjectStore } from '../storage/objects/object-store.js';
import type { VendorClient } from '../vendors/vendor-client.js';
import type { AssignmentService } from './assignment-service.js';
import type { AuthenticationStateStore } from './authentication-state-store.js';
import { encryptIdentityPart } from './identity-crypto.js';
import { IssuanceService, type IssueCommand, type IssuingVendor } from './issuance-service.js';
import type { Issuance, IssuanceStore } from './issuance-store.js';

// What a failed issuance record leaves in the object store. The HTTP tests cover a record the
// database refused; a record that committed before its error, or a lookup that fails too, cannot be
// provoked through a real database, so these rows use stand-ins for the stores.

const aesKey = randomBytes(32);
const STATE_ID = 'state-1';
const RECORD_FAILURE = new Error('the connection dropped');

/** The one vendor these rows issue through, as the service sees it. */
const issuingThrough = (client: VendorClient): ReadonlyMap<string, IssuingVendor> =>
  new Map([
    [
      'VENDOR_A',
      { client, secondCall: 'stepData', metricsLabel: 'VENDOR_A', disabledProviders: [], authTtlSeconds: 300 },
    ],
  ]);

const command: IssueCommand = {
  userId: 'user-1',
  document: 'resident-certificate',
  vendor: 'VENDOR_A',
  provider: 'provider_a',
  front: '880415',
  encryptedBack: { value: encryptIdentityPart('1572936', aesKey), field: 'identityEnc' },
  details: { form: 'resident', sido: '서울특별시', sigg: '강남구' },
  stepData: 'step-data',
  twoWayInfo: null,
  assignmentId: null,
};

type Lookup = 'no record' | 'a record' | 'fails';

function serviceWith(lookup: Lookup) {
  const objects = new Map<string, Buffer>();
  const released: string[] = [];
  const errors: unknown[][] = [];
  const vendor: VendorClient = {
    vendor: 'VENDOR_A',
    providerCode: () => 'PASS',
    startAuthentication: async () => ({ field: 'stepData', stepData: 'step-data' }),
    completeIssuance: async () => ({ pdf: Buffer.from('%PDF-1.4\n'), vendorReference: null }),
  };
  const states = {
    claimBound: async () => STATE_ID,
    release: async (id: string) => {
      released.push(id);
    },
  } as unknown as AuthenticationStateStore;
  const issuances = {
    record: async () => {
      throw RECORD_FAILURE;
    },
    findByAuthenticationState: async (): Promise<Issuance | undefined> => {
      if (lookup === 'fails') throw new Error('the database is unreachable');
      return lookup === 'a record' ? ({ authenticationStateId: STATE_ID } as Issuance) : undefined;
    },
  } as unknown as IssuanceStore;
  const store = {
    put: async (key: string, body: Buffer) => {
      objects.set(key, body);
    },
    delete: async (key: string) => {
      objects.delete(key);
    },
  } as unknown as ObjectStore;
  const log = {
    info: () => {},
    warn: () => {},
    error: (...args: unknown[]) => errors.push(args),
  } as unknown as FastifyBaseLogger;
  const service = new IssuanceService({
    vendors: issuingThrough(vendor),
    states,
    issuances,
    assignments: {} as AssignmentService,
    objects: store,
    log,
    aesKey,
    vendorTimeoutMs: 1000,
    urlTtlSeconds: 600,
    retentionDays: 7,
  });
  return { service, objects, released, errors };
}

describe('a failed issuance record', () => {
  it.each([
    { lookup: 'no record', pdfKept: false, logged: false },
    { lookup: 'a record', pdfKept: true, logged: false },
    { lookup: 'fails', pdfKept: true, logged: true },
  ] as const)(
    'when the lookup finds $lookup: PDF kept $pdfKept, logged $logged',
    async ({ lookup, pdfKept, logged }) => {
      const { service, objects, released, errors } = serviceWith(lookup);
      await expect(service.issue(command)).rejects.toBe(RECORD_FAILURE);
      expect(objects.size).toBe(pdfKept ? 1 : 0);
      expect(released).toEqual([STATE_ID]);
      expect(errors).toHaveLength(logged ? 1 : 0);
      if (logged) {
        const [fields] = errors[0] as [Record<string, unknown>];
        // The object key names the issuance only; nothing of the person reaches the log.
        expect(Object.keys(fields)).toEqual(['objectKey']);
        expect(String(fields.objectKey)).toMatch(/^certificates\/[0-9a-f]{2}\/[0-9a-f-]{36}\.pdf$/);
        expect(JSON.stringify(errors)).not.toMatch(/880415|1572936|user-1/);
      }
    },
  );
});

// Concurrent duplicates of a second call wait for the one in flight (the HTTP tests in
// duplicate-second-calls.test.ts), but only so long: past duplicateWaitMs they answer AUTH_PENDING
// as before. Over HTTP the bound is the vendor timeout, which also ends the call waited for.
describe('a duplicate second call in this process', () => {
  it('waits for the call in flight at most duplicateWaitMs, then answers AUTH_PENDING', async () => {
    let answerVendor: () => void = () => {};
    const vendorAnswered = new Promise<void>((resolve) => {
      answerVendor = resolve;
    });
    const vendor: VendorClient = {
      vendor: 'VENDOR_A',
      providerCode: () => 'PASS',
      startAuthentication: async () => ({ field: 'stepData', stepData: 'step-data' }),
      completeIssuance: async () => {
        await vendorAnswered;
        return { pdf: Buffer.from('%PDF-1.4\n'), vendorReference: null };
      },
    };
    let claims = 0;
    const states = {
      claimBound: async () => (claims++ === 0 ? STATE_ID : undefined),
      findByHash: async () => ({
        id: STATE_ID,
        stateHash: 'hash',
        userId: command.userId,
        vendor: command.vendor,
        document: command.document,
        provider: command.provider,
        assignmentId: null,
        status: 'completing',
        leaseUntil: Date.now() + 60_000,
        expiresAt: Date.now() + 300_000,
        createdAt: Date.now(),
      }),
      claim: async () => false,
      release: async () => {},
    } as unknown as AuthenticationStateStore;
    const service = new IssuanceService({
      vendors: issuingThrough(vendor),
      states,
      issuances: { record: async () => {} } as unknown as IssuanceStore,
      assignments: {} as AssignmentService,
      objects: {
        put: async () => {},
        signedGetUrl: async (key: string) => `https://objects.test/${key}`,
      } as unknown as ObjectStore,
      log: { info: () => {}, warn: () => {}, error: () => {} } as unknown as FastifyBaseLogger,
      aesKey,
      vendorTimeoutMs: 30_000,
      duplicateWaitMs: 50,
      urlTtlSeconds: 600,
      retentionDays: 7,
    });

    const holder = service.issue(command);
    const duplicate = service.issue(command);
    await expect(duplicate).rejects.toMatchObject({ code: 'AUTH_PENDING', retryAfterSeconds: 2 });
    expect(service.waitingDuplicates).toEqual({ inProcess: 0, onLease: 0 });
    answerVendor();
    expect((await holder).response.preSignedUrl).toMatch(/^https:\/\/objects\.test\/certificates\//);
  });
});
