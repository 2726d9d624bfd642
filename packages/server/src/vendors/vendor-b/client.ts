import { isStorableText, type ProviderCode, type TwoWayInfo } from '@ferry/contracts';
import {
  decodeUrlEncodedJson,
  encodeUrlEncodedJson,
  encryptForVendorB,
  VENDOR_B_CODES,
  VENDOR_B_ORGANIZATION,
  VENDOR_B_PRODUCTS,
  VENDOR_B_PROVIDER_CODES,
  type VendorBRequestBody,
  type VendorBResponseBody,
} from '@ferry/contracts/vendors';
import {
  type IssuedDocument,
  type VendorAuthState,
  type VendorCallOptions,
  type VendorClient,
  VendorFailure,
  type VendorIssuanceRequest,
  type VendorOperation,
  type VendorTiming,
} from '../vendor-client.js';
import { vendorExchange } from '../vendor-http.js';
import { AccessTokenCache } from './access-token.js';
import type { VendorBAccount } from './account.js';
import { classifyVendorBCode } from './result-codes.js';

const isWholeNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

const isResponseBody = (value: unknown): value is VendorBResponseBody => {
  const body = value as VendorBResponseBody | null;
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof body.result === 'object' &&
    body.result !== null &&
    typeof body.result.code === 'string'
  );
};

/**
 * VENDOR_B over HTTP: OAuth client-credentials token (cached, renewed once on 401), identity
 * RSA-encrypted, bodies as URL-encoded JSON. The first call answers CF-03002 with twoWayInfo;
 * the second repeats the body with `is2Way`, `simpleAuth` and that twoWayInfo.
 */
export class VendorBClient implements VendorClient {
  readonly vendor = 'VENDOR_B' as const;
  private readonly tokens: AccessTokenCache;

  constructor(
    private readonly account: VendorBAccount,
    private readonly timing?: VendorTiming,
  ) {
    this.tokens = new AccessTokenCache(account, Date.now, timing);
  }

  providerCode(provider: ProviderCode): string | undefined {
    return VENDOR_B_PROVIDER_CODES[provider];
  }

  async startAuthentication(request: VendorIssuanceRequest, options: VendorCallOptions): Promise<VendorAuthState> {
    const response = await this.call(request, this.body(request), options, 'start-authentication');
    if (response.result.code !== VENDOR_B_CODES.continueTwoWay) throw this.failureOf(response.result.code);
    return { field: 'twoWayInfo', twoWayInfo: this.twoWayInfoOf(response) };
  }

  async completeIssuance(
    request: VendorIssuanceRequest,
    state: VendorAuthState,
    options: VendorCallOptions,
  ): Promise<IssuedDocument> {
    if (state.field !== 'twoWayInfo') throw new Error('VENDOR_B needs twoWayInfo');
    const body: VendorBRequestBody = {
      ...this.body(request),
      is2Way: true,
      simpleAuth: '1',
      twoWayInfo: { ...state.twoWayInfo },
    };
    const response = await this.call(request, body, options, 'complete-issuance');
    if (response.result.code !== VENDOR_B_CODES.success) throw this.failureOf(response.result.code);
    const data = response.data as Partial<{ resOriGinalData: unknown; resIssueNo: unknown }>;
    if (typeof data.resOriGinalData !== 'string' || data.resOriGinalData.length === 0) {
      throw new VendorFailure('unavailable', null, 'The vendor answered without a document.');
    }
    return {
      pdf: Buffer.from(data.resOriGinalData, 'base64'),
      vendorReference: typeof data.resIssueNo === 'string' ? data.resIssueNo : null,
    };
  }

  private failureOf(code: string): VendorFailure {
    const kind = classifyVendorBCode(code);
    return new VendorFailure(kind, code);
  }

  private twoWayInfoOf(response: VendorBResponseBody): TwoWayInfo {
    const data = response.data as Partial<TwoWayInfo>;
    if (
      !isWholeNumber(data.jobIndex) ||
      !isWholeNumber(data.threadIndex) ||
      typeof data.jti !== 'string' ||
      data.jti.length === 0 ||
      data.jti.length > 128 ||
      // The client sends twoWayInfo back as it got it, and the request schema refuses control characters and lone surrogates.
      !isStorableText(data.jti) ||
      !isWholeNumber(data.twoWayTimestamp)
    ) {
      throw new VendorFailure('unavailable', null, 'The vendor answered without usable twoWayInfo.');
    }
    return {
      jobIndex: data.jobIndex,
      threadIndex: data.threadIndex,
      jti: data.jti,
      twoWayTimestamp: data.twoWayTimestamp,
    };
  }

  private body(request: VendorIssuanceRequest): VendorBRequestBody {
    const level = this.providerCode(request.provider);
    if (!level) throw new Error(`VENDOR_B has no code for ${request.provider}`);
    const common: VendorBRequestBody = {
      organization: VENDOR_B_ORGANIZATION,
      loginType: '6',
      loginTypeLevel: level,
      identity: encryptForVendorB(request.identity.front + request.identity.back.reveal(), this.account.publicKey),
      identityEncYn: 'Y',
      birthDate: request.identity.front,
      originDataYN: '1',
    };
    if (request.form === 'family') {
      const { father, mother, spouse, child } = request.family;
      return {
        ...common,
        ...(father ? { fatherName: father } : {}),
        ...(mother ? { motherName: mother } : {}),
        ...(spouse ? { spouseName: spouse } : {}),
        ...(child ? { childName: child } : {}),
      };
    }
    return { ...common, addrSido: request.address.sido, addrSiGunGu: request.address.sigg };
  }

  /** One product call; a 401 drops the cached token and retries once with a new one. */
  private async call(
    request: VendorIssuanceRequest,
    body: VendorBRequestBody,
    options: VendorCallOptions,
    operation: VendorOperation,
  ): Promise<VendorBResponseBody> {
    const url = `${this.account.baseUrl}${VENDOR_B_PRODUCTS[request.document]}`;
    const encoded = encodeUrlEncodedJson(body);
    const timing = this.timing;
    const timed = timing && ((seconds: number) => timing(operation, seconds));
    for (let attempt = 0; ; attempt++) {
      const token = await this.tokens.get(options.signal);
      const response = await vendorExchange(
        url,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: encoded,
        },
        options.signal,
        timed,
      );
      if (response.status === 401 && attempt === 0) {
        this.tokens.invalidate(token);
        continue;
      }
      if (response.status !== 200) {
        throw new VendorFailure('unavailable', `HTTP ${response.status}`, 'The vendor answered with an HTTP error.');
      }
      let parsed: unknown;
      try {
        parsed = decodeUrlEncodedJson(response.body);
      } catch {
        throw new VendorFailure('unavailable', null, 'The vendor answered with an unreadable body.');
      }
      if (!isResponseBody(parsed)) {
        throw new VendorFailure('unavailable', null, 'The vendor answered in an unexpected shape.');
      }
      return parsed;
    }
  }
}
