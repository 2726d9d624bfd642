import { randomUUID } from 'node:crypto';
import { isStorableText, type ProviderCode } from '@ferry/contracts';
import {
  encryptForVendorA,
  VENDOR_A_HEADERS,
  VENDOR_A_PRODUCTS,
  VENDOR_A_PROVIDER_CODES,
  type VendorARequestBody,
  type VendorAResponseBody,
} from '@ferry/contracts/vendors';
import {
  type IssuedDocument,
  type VendorAuthState,
  type VendorCallOptions,
  type VendorClient,
  VendorFailure,
  type VendorIssuanceRequest,
  type VendorTiming,
} from '../vendor-client.js';
import { parseVendorJson, vendorExchange } from '../vendor-http.js';
import type { VendorAAccount } from './account.js';
import { classifyVendorAError } from './result-codes.js';

const isResponseBody = (value: unknown): value is VendorAResponseBody => {
  const body = value as VendorAResponseBody | null;
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof body.common === 'object' &&
    body.common !== null &&
    (body.common.errYn === 'Y' || body.common.errYn === 'N') &&
    (body.data === undefined || (typeof body.data === 'object' && body.data !== null))
  );
};

/** VENDOR_A over HTTP: `user-id` + `Hkey` headers, `step: init` then `step: sign` with the stepData. */
export class VendorAClient implements VendorClient {
  readonly vendor = 'VENDOR_A' as const;
  constructor(
    private readonly account: VendorAAccount,
    private readonly timing?: VendorTiming,
  ) {}

  providerCode(provider: ProviderCode): string | undefined {
    return VENDOR_A_PROVIDER_CODES[provider];
  }

  async startAuthentication(request: VendorIssuanceRequest, options: VendorCallOptions): Promise<VendorAuthState> {
    const data = await this.call(request, { step: 'init' }, options);
    // The client sends stepData back as it got it, and the request schema refuses control characters and lone surrogates.
    if (
      typeof data.stepData !== 'string' ||
      data.stepData.length === 0 ||
      data.stepData.length > 4096 ||
      !isStorableText(data.stepData)
    ) {
      throw new VendorFailure('unavailable', null, 'The vendor answered without authentication data.');
    }
    return { field: 'stepData', stepData: data.stepData };
  }

  async completeIssuance(
    request: VendorIssuanceRequest,
    state: VendorAuthState,
    options: VendorCallOptions,
  ): Promise<IssuedDocument> {
    if (state.field !== 'stepData') throw new Error('VENDOR_A needs stepData');
    const data = await this.call(request, { step: 'sign', stepData: state.stepData }, options);
    const hex = data.hexString;
    if (typeof hex !== 'string' || hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) {
      throw new VendorFailure('unavailable', null, 'The vendor answered without a document.');
    }
    return { pdf: Buffer.from(hex, 'hex'), vendorReference: data.cappReqNo ?? null };
  }

  private body(request: VendorIssuanceRequest): Omit<VendorARequestBody, 'step' | 'stepData'> {
    const provider = this.providerCode(request.provider);
    if (!provider) throw new Error(`VENDOR_A has no code for ${request.provider}`);
    const common = {
      authMethod: 'EASY' as const,
      loginOrgCd: provider,
      resNo: request.identity.front,
      bizNoEnc: encryptForVendorA(
        request.identity.front + request.identity.back.reveal(),
        this.account.ekey,
        this.account.userId,
      ),
      stepMode: 'step' as const,
    };
    if (request.form === 'family') {
      const { father, mother, spouse, child } = request.family;
      return {
        ...common,
        ...(father ? { fthrNm: father } : {}),
        ...(mother ? { mthrNm: mother } : {}),
        ...(spouse ? { sposNm: spouse } : {}),
        ...(child ? { childNm: child } : {}),
      };
    }
    return { ...common, sido: request.address.sido, sigg: request.address.sigg };
  }

  private async call(
    request: VendorIssuanceRequest,
    step: Pick<VendorARequestBody, 'step' | 'stepData'>,
    options: VendorCallOptions,
  ): Promise<VendorAResponseBody['data']> {
    const body: VendorARequestBody = { ...this.body(request), ...step };
    const operation = step.step === 'init' ? 'start-authentication' : 'complete-issuance';
    const timing = this.timing;
    const response = await vendorExchange(
      `${this.account.baseUrl}/${VENDOR_A_PRODUCTS[request.document]}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [VENDOR_A_HEADERS.userId]: this.account.userId,
          [VENDOR_A_HEADERS.key]: this.account.hkey,
          [VENDOR_A_HEADERS.transaction]: randomUUID(),
        },
        body: JSON.stringify(body),
      },
      options.signal,
      timing && ((seconds) => timing(operation, seconds)),
    );
    if (response.status !== 200) {
      throw new VendorFailure('unavailable', `HTTP ${response.status}`, 'The vendor answered with an HTTP error.');
    }
    const parsed = parseVendorJson(response.body);
    if (!isResponseBody(parsed)) {
      throw new VendorFailure('unavailable', null, 'The vendor answered in an unexpected shape.');
    }
    if (parsed.common.errYn === 'Y') {
      const { kind, code } = classifyVendorAError(
        String(parsed.common.errCd ?? ''),
        String(parsed.common.errMsg ?? ''),
      );
      throw new VendorFailure(kind, code);
    }
    return parsed.data ?? {};
  }
}
