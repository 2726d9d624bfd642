import type { ProviderCode } from '@ferry/contracts';
import {
  type IssuedDocument,
  type VendorAuthState,
  type VendorCallOptions,
  type VendorClient,
  VendorFailure,
  type VendorIssuanceRequest,
  type VendorOperation,
  type VendorTiming,
} from '../../../src/vendors/vendor-client.js';
import { parseVendorJson, vendorExchange } from '../../../src/vendors/vendor-http.js';
import { TEST_VENDOR_RESULT_CODES } from './result-codes.js';
import { TEST_VENDOR, type TestVendorAnswer, type TestVendorRequestBody } from './wire.js';

export interface TestVendorAccount {
  baseUrl: string;
  key: string;
}

/** The test vendor over HTTP: the first call answers a session, the second sends it back (stepData style). */
export class TestVendorClient implements VendorClient {
  readonly vendor = TEST_VENDOR;
  constructor(
    private readonly account: TestVendorAccount,
    private readonly timing?: VendorTiming,
  ) {}

  /** It takes every provider under the contracts' own code. */
  providerCode(provider: ProviderCode): string {
    return provider;
  }

  async startAuthentication(request: VendorIssuanceRequest, options: VendorCallOptions): Promise<VendorAuthState> {
    const answer = await this.call('start-authentication', request, undefined, options);
    if (answer.code !== 'STARTED' || typeof answer.session !== 'string' || answer.session === '') {
      throw this.failure(answer.code);
    }
    return { field: 'stepData', stepData: answer.session };
  }

  async completeIssuance(
    request: VendorIssuanceRequest,
    state: VendorAuthState,
    options: VendorCallOptions,
  ): Promise<IssuedDocument> {
    if (state.field !== 'stepData') throw new Error(`${TEST_VENDOR} needs stepData`);
    const answer = await this.call('complete-issuance', request, state.stepData, options);
    if (answer.code !== 'OK' || typeof answer.pdf !== 'string') throw this.failure(answer.code);
    return { pdf: Buffer.from(answer.pdf, 'base64'), vendorReference: answer.reference ?? null };
  }

  private failure(code: string): VendorFailure {
    return new VendorFailure(TEST_VENDOR_RESULT_CODES[code] ?? 'unavailable', code);
  }

  private async call(
    operation: VendorOperation,
    request: VendorIssuanceRequest,
    session: string | undefined,
    options: VendorCallOptions,
  ): Promise<TestVendorAnswer> {
    const body: TestVendorRequestBody = {
      provider: request.provider,
      birthDate: request.identity.front,
      number: request.identity.front + request.identity.back.reveal(),
      ...(request.form === 'family'
        ? { family: Object.values(request.family).filter((name): name is string => name !== null) }
        : { address: request.address }),
      ...(session === undefined ? {} : { session }),
    };
    const timing = this.timing;
    const response = await vendorExchange(
      `${this.account.baseUrl}/issue/${request.document}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Key ${this.account.key}` },
        body: JSON.stringify(body),
      },
      options.signal,
      timing && ((seconds) => timing(operation, seconds)),
    );
    if (response.status !== 200) throw new VendorFailure('unavailable', `HTTP ${response.status}`);
    const answer = parseVendorJson(response.body) as Partial<TestVendorAnswer> | null;
    if (typeof answer?.code !== 'string') throw new VendorFailure('unavailable', null);
    return answer as TestVendorAnswer;
  }
}
