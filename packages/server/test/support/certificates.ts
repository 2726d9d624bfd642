import { randomBytes, randomUUID } from 'node:crypto';
import type {
  CertificateDocument,
  CertificateResponse,
  CertificateVendor,
  CreateFamilyRelationsV2RequestInput,
  CreateResidentCertificateV2RequestInput,
  ProviderCode,
  TwoWayInfo,
} from '@ferry/contracts';
import { CERTIFICATE_DOCUMENTS, CERTIFICATE_VENDORS, formOf, RESPONSE_WRAPPER_KEY } from '@ferry/contracts';
import {
  signDevelopmentToken,
  VendorASimulator,
  VendorBSimulator,
  type VendorSimulator,
  vendorASimulatorEnv,
  vendorBSimulatorEnv,
} from '@ferry/dev-tools';
import { encryptIdentityPart } from '../../src/certificates/identity-crypto.js';
import type { EngineName } from './engines.js';
import { startTestServer, type TestServer, type TestServerOptions } from './test-server.js';

/** The shared AES key the test "clients" encrypt with. */
export const TEST_CERT_AES_KEY = randomBytes(32);
export const TEST_JWT_SECRET = `test-user-jwt-secret-${randomBytes(12).toString('hex')}`;
export const TEST_OPERATOR_TOKEN = `test-operator-token-${randomBytes(8).toString('hex')}`;

/** A person whose digits are easy to search for in logs and storage. */
export const PERSON = { front: '880415', back: '1572936' } as const;

export const DOCUMENTS: readonly CertificateDocument[] = CERTIFICATE_DOCUMENTS;
export const VENDORS: readonly CertificateVendor[] = CERTIFICATE_VENDORS;

/** A simulator for every vendor (the built-in ones by their own classes). */
export type TestSimulators = Readonly<Record<CertificateVendor, VendorSimulator>> & {
  VENDOR_A: VendorASimulator;
  VENDOR_B: VendorBSimulator;
};

export interface CertificateTestServer extends TestServer {
  simulators: TestSimulators;
  tokenFor(userId: string, options?: { certified?: boolean; expiresInSeconds?: number }): Promise<string>;
  /** POST a certificate endpoint as a user. */
  post(document: CertificateDocument, body: unknown, token: string | undefined): Promise<Response>;
  /** Gives the user an assignment through the vendor (any of the server's registry). */
  createAssignment(userId: string, vendor: string): Promise<string>;
  /** Approves the newest pending authentication at the vendor's simulator, over its control endpoint. */
  approve(vendor: CertificateVendor): Promise<void>;
  vendorCalls(): number;
}

/** Environment for a certificate test server: known keys, manual approval, generous limits. */
export const certificateEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  CERT_AES_KEY: TEST_CERT_AES_KEY.toString('base64'),
  AUTH_JWT_SECRET: TEST_JWT_SECRET,
  OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
  VENDOR_SIM_APPROVAL_DELAY_MS: 'never',
  CERT_RATE_LIMIT_PER_MINUTE: '1000',
  ...extra,
});

export interface CertificateTestServerOptions extends TestServerOptions {
  /**
   * Simulators the test runs itself, which the server reaches as configured vendor accounts
   * instead of starting its own: several servers then talk to the same vendors (scale-out tests).
   */
  vendors?: { VENDOR_A: VendorASimulator; VENDOR_B: VendorBSimulator };
}

export async function startCertificateServer(
  engine: EngineName,
  options: CertificateTestServerOptions = {},
): Promise<CertificateTestServer> {
  const { vendors, ...serverOptions } = options;
  const vendorEnv = vendors
    ? {
        ...vendorASimulatorEnv(vendors.VENDOR_A.url, vendors.VENDOR_A.account),
        ...vendorBSimulatorEnv(vendors.VENDOR_B.url, vendors.VENDOR_B.account),
      }
    : {};
  const server = await startTestServer(engine, {
    ...serverOptions,
    env: certificateEnv({ ...vendorEnv, ...options.env }),
  });
  const sims: Partial<Record<string, VendorSimulator>> = { ...server.app.certificates.simulators, ...vendors };
  if (
    !(sims.VENDOR_A instanceof VendorASimulator) ||
    !(sims.VENDOR_B instanceof VendorBSimulator) ||
    VENDORS.some((vendor) => !sims[vendor])
  ) {
    throw new Error('expected a simulator for every vendor');
  }
  const all = Object.values(sims).filter((simulator) => simulator !== undefined);
  return {
    ...server,
    simulators: sims as TestSimulators,
    tokenFor: (userId, tokenOptions = {}) => signDevelopmentToken({ userId, secret: TEST_JWT_SECRET, ...tokenOptions }),
    post: (document, body, token) =>
      fetch(`${server.url}/v2/user/certificate/${document}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    createAssignment: async (userId, vendor) => {
      const response = await fetch(`${server.url}/v2/operator/assignments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
        body: JSON.stringify({ userId, certificateVendor: vendor, title: 'Submit your certificate' }),
      });
      if (response.status !== 201) throw new Error(`assignment not created: ${response.status}`);
      return (await response.json()).assignment.id;
    },
    approve: async (vendor) => {
      const response = await fetch(`${sims[vendor]?.url}/_control/sessions/latest/approve`, { method: 'POST' });
      if (response.status !== 200) throw new Error(`approval failed: ${response.status}`);
    },
    vendorCalls: () => all.reduce((sum, simulator) => sum + simulator.calls.count, 0),
  };
}

export const newUser = (): string => `user-${randomUUID()}`;

export const encryptBack = (digits: string = PERSON.back): string => encryptIdentityPart(digits, TEST_CERT_AES_KEY);

export interface BodyOptions {
  vendor?: CertificateVendor;
  loginOrgCd?: ProviderCode;
  stepData?: string | null;
  twoWayInfo?: TwoWayInfo | null;
  assignmentId?: string | null;
}

export function residentBody(options: BodyOptions = {}): CreateResidentCertificateV2RequestInput {
  return {
    vendor: options.vendor ?? 'VENDOR_A',
    loginOrgCd: options.loginOrgCd ?? 'provider_a',
    birthDate: PERSON.front,
    identityEnc: encryptBack(),
    sido: '서울특별시',
    sigg: '강남구',
    stepData: options.stepData ?? null,
    twoWayInfo: options.twoWayInfo ?? null,
    assignmentId: options.assignmentId ?? null,
  };
}

export function familyBody(options: BodyOptions = {}): CreateFamilyRelationsV2RequestInput {
  return {
    vendor: options.vendor ?? 'VENDOR_A',
    loginOrgCd: options.loginOrgCd ?? 'provider_a',
    rrn1: PERSON.front,
    rrn2Enc: encryptBack(),
    fthrNm: '홍길동',
    mthrNm: null,
    sposNm: null,
    childNm: null,
    stepData: options.stepData ?? null,
    twoWayInfo: options.twoWayInfo ?? null,
    assignmentId: options.assignmentId ?? null,
  };
}

/** A first-call body for any document (the identity part is freshly encrypted every time). */
export const bodyFor = (document: CertificateDocument, options: BodyOptions = {}) =>
  formOf(document) === 'family' ? familyBody(options) : residentBody(options);

/** The same request plus the state the first call answered: what a client sends the second time. */
export const secondBodyFor = (document: CertificateDocument, first: CertificateResponse, options: BodyOptions = {}) =>
  bodyFor(document, { ...options, stepData: first.stepData, twoWayInfo: first.twoWayInfo });

/** Unwraps the document's wrapper key. */
export async function unwrap(document: CertificateDocument, response: Response): Promise<CertificateResponse> {
  const body = await response.json();
  const inner = body[RESPONSE_WRAPPER_KEY[document]];
  if (!inner) throw new Error(`no ${RESPONSE_WRAPPER_KEY[document]} in ${JSON.stringify(body)}`);
  return inner;
}
