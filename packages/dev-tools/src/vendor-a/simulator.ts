import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { formOf } from '@ferry/contracts';
import {
  decryptForVendorA,
  documentOfVendorAProduct,
  VENDOR_A_HEADERS,
  VENDOR_A_PROVIDER_CODES,
  type VendorARequestBody,
  type VendorAResponseBody,
} from '@ferry/contracts/vendors';
import type { FastifyInstance } from 'fastify';
import { simulatedPdf } from '../simulator/simulated-pdf.js';
import { type SimulatorOptions, VendorSimulator } from '../simulator/simulator-server.js';

/** The vendor's own provider list is wider than ours; these are the codes it accepts. */
const ACCEPTED_PROVIDERS = new Set([...Object.values(VENDOR_A_PROVIDER_CODES), 'payco', 'kica', 'pass']);

/** The account VENDOR_A issues: `user-id` header (also the AES IV), `Hkey` header, AES-128 key. */
export interface VendorASimulatorAccount {
  userId: string;
  hkey: string;
  ekey: Buffer;
}

/** A fresh account for a simulator that nobody configured (development, tests). */
export const generateVendorAAccount = (): VendorASimulatorAccount => ({
  userId: `sim-${randomBytes(4).toString('hex')}`,
  hkey: randomBytes(18).toString('base64url'),
  ekey: Buffer.from(randomBytes(8).toString('hex'), 'utf8'),
});

class VendorAError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * VENDOR_A simulator: speaks the `stepData` style over HTTP. `step: init` pushes to the (simulated)
 * provider app and answers an opaque stepData; `step: sign` with it answers the PDF as hex once the
 * user approved. stepData is signed, single-use and expires after the TTL (300 s by default).
 */
export class VendorASimulator extends VendorSimulator {
  /** Vendor-encrypted identity fields the simulator received, for privacy assertions in tests. */
  readonly observedCiphertexts: string[] = [];
  private readonly signingKey = randomBytes(32);

  constructor(
    readonly account: VendorASimulatorAccount,
    options: SimulatorOptions = {},
  ) {
    super(
      'VENDOR_A',
      { ttlMs: 300_000, rejectCode: 'AUTH-CANCEL', garbledBody: '{"common":{"errYn":"N","errCd":' },
      options,
    );
  }

  protected registerVendorRoutes(scope: FastifyInstance): void {
    scope.post<{ Params: { product: string } }>('/:product', async (request) => {
      const common = {
        userTrNo: String(request.headers[VENDOR_A_HEADERS.transaction] ?? ''),
        hyphenTrNo: randomBytes(8).toString('hex'),
      };
      try {
        const data = this.handle(request.params.product, request.headers, request.body);
        return { common: { ...common, errYn: 'N', errCd: '', errMsg: '' }, data } satisfies VendorAResponseBody;
      } catch (error) {
        if (!(error instanceof VendorAError)) throw error;
        return {
          common: { ...common, errYn: 'Y', errCd: error.code, errMsg: `[${error.code}] ${error.message}` },
          data: {},
        } satisfies VendorAResponseBody;
      }
    });
  }

  private handle(product: string, headers: Record<string, unknown>, rawBody: unknown): VendorAResponseBody['data'] {
    if (
      headers[VENDOR_A_HEADERS.userId] !== this.account.userId ||
      headers[VENDOR_A_HEADERS.key] !== this.account.hkey
    ) {
      throw new VendorAError('HDM006', 'user-id 또는 Hkey가 올바르지 않습니다 (invalid credentials).');
    }
    const document = documentOfVendorAProduct(product);
    if (!document) throw new VendorAError('HDM012', 'API 권한이 없습니다 (no permission for this API).');
    const body = (rawBody ?? {}) as Partial<VendorARequestBody>;
    if (body.authMethod !== 'EASY' || body.stepMode !== 'step') {
      throw new VendorAError('LOGIN-001', 'authMethod EASY and stepMode step are required.');
    }
    if (typeof body.loginOrgCd !== 'string' || !ACCEPTED_PROVIDERS.has(body.loginOrgCd)) {
      throw new VendorAError('LOGIN-001', 'Unknown loginOrgCd.');
    }
    const number = this.decryptNumber(body);
    if (formOf(document) === 'family') {
      if (![body.fthrNm, body.mthrNm, body.sposNm, body.childNm].some((n) => typeof n === 'string' && n !== '')) {
        throw new VendorAError('LOGIN-001', 'At least one family member name is required.');
      }
    } else if (!body.sido || !body.sigg) {
      throw new VendorAError('LOGIN-001', 'sido and sigg are required.');
    }
    const personDigest = createHash('sha256').update(`${document}|${body.loginOrgCd}|${number}`).digest('hex');

    if (body.step === 'init') {
      const session = this.sessions.create({
        id: randomBytes(16).toString('hex'),
        document,
        provider: body.loginOrgCd,
        personDigest,
      });
      return { stepData: this.stepDataFor(session.id) };
    }
    if (body.step !== 'sign') throw new VendorAError('LOGIN-001', 'step must be init or sign.');

    const id = typeof body.stepData === 'string' ? this.sessionIdOf(body.stepData) : undefined;
    const session = id ? this.sessions.get(id) : undefined;
    if (!session || session.document !== document) {
      throw new VendorAError('STEP-INVALID', 'stepData가 올바르지 않습니다 (invalid stepData).');
    }
    if (session.personDigest !== personDigest) {
      throw new VendorAError('LOGIN-001', 'The request does not match the authentication.');
    }
    switch (this.sessions.statusOf(session)) {
      case 'pending':
        throw new VendorAError('AUTH-WAIT', '간편인증 승인 대기 중입니다 (approval pending).');
      case 'rejected':
        throw new VendorAError(session.rejectedCode ?? 'AUTH-CANCEL', 'The authentication was refused.');
      case 'expired':
        throw new VendorAError('STEP-EXPIRED', '인증 시간이 초과되었습니다 (authentication expired).');
      case 'consumed':
        throw new VendorAError('STEP-USED', 'This stepData was already used.');
      case 'approved': {
        this.sessions.consume(session);
        const reference = `SIM-A-${randomBytes(6).toString('hex').toUpperCase()}`;
        return { hexString: simulatedPdf(document, 'VENDOR_A', reference).toString('hex'), cappReqNo: reference };
      }
    }
  }

  private decryptNumber(body: Partial<VendorARequestBody>): string {
    if (typeof body.resNo !== 'string' || !/^\d{6}$/.test(body.resNo) || typeof body.bizNoEnc !== 'string') {
      throw new VendorAError('LOGIN-001', 'resNo and bizNoEnc are required.');
    }
    this.observedCiphertexts.push(body.bizNoEnc);
    if (this.observedCiphertexts.length > 1000) this.observedCiphertexts.shift();
    let number: string;
    try {
      number = decryptForVendorA(body.bizNoEnc, this.account.ekey, this.account.userId);
    } catch {
      throw new VendorAError('LOGIN-001', 'bizNoEnc could not be decrypted.');
    }
    if (!/^\d{13}$/.test(number) || !number.startsWith(body.resNo)) {
      throw new VendorAError('LOGIN-001', 'bizNoEnc is not a resident registration number matching resNo.');
    }
    return number;
  }

  /** stepData = Base64(session id ‖ first 16 bytes of its HMAC): opaque to the caller, tamper-evident. */
  private stepDataFor(id: string): string {
    const raw = Buffer.from(id, 'hex');
    return Buffer.concat([raw, this.mac(raw)]).toString('base64');
  }

  private sessionIdOf(stepData: string): string | undefined {
    const raw = Buffer.from(stepData, 'base64');
    if (raw.length !== 32 || raw.toString('base64') !== stepData) return undefined;
    const id = raw.subarray(0, 16);
    return timingSafeEqual(raw.subarray(16), this.mac(id)) ? id.toString('hex') : undefined;
  }

  private mac(data: Buffer): Buffer {
    return createHmac('sha256', this.signingKey).update(data).digest().subarray(0, 16);
  }
}
