import { createHash, generateKeyPair, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { type CertificateDocument, formOf, type TwoWayInfo } from '@ferry/contracts';
import type { VendorBRequestBody, VendorBResponseBody, VendorBTokenResponse } from '@ferry/contracts/vendors';
import {
  decodeUrlEncodedJson,
  decryptForVendorB,
  VENDOR_B_ORGANIZATION,
  VENDOR_B_PRODUCTS,
} from '@ferry/contracts/vendors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import { simulatedPdf } from '../simulator/simulated-pdf.js';
import { type SimulatorOptions, VendorSimulator } from '../simulator/simulator-server.js';
import type { SimulatedSession } from '../simulator/simulator-sessions.js';

export interface VendorBSimulatorAccount {
  clientId: string;
  clientSecret: string;
  publicKey: KeyObject;
  privateKey: KeyObject;
}

let keyPair: Promise<{ publicKey: KeyObject; privateKey: KeyObject }> | undefined;

/**
 * A fresh account for a simulator nobody configured. The RSA key pair is generated once per
 * process (it takes a moment); client id and secret are new every time.
 */
export async function generateVendorBAccount(): Promise<VendorBSimulatorAccount> {
  keyPair ??= promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const { publicKey, privateKey } = await keyPair;
  return {
    clientId: `sim-${randomBytes(6).toString('hex')}`,
    clientSecret: randomBytes(24).toString('base64url'),
    publicKey,
    privateKey,
  };
}

/** The public key the way the vendor hands it out: Base64 of the X.509 SPKI. */
export const vendorBPublicKeyText = (account: Pick<VendorBSimulatorAccount, 'publicKey'>): string =>
  account.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

const ACCEPTED_LEVELS = new Set(['1', '2', '3', '4', '5', '6', '7', '8']);

class VendorBResult extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data: VendorBResponseBody['data'] = {},
  ) {
    super(message);
  }
}

/** Answers the way the vendor does: JSON, URL-encoded, `+` for spaces. */
const urlEncoded = (value: unknown): string => encodeURIComponent(JSON.stringify(value)).replace(/%20/g, '+');

export interface VendorBSimulatorOptions extends SimulatorOptions {
  /** Lifetime of issued access tokens (the vendor's is 7 days). */
  tokenLifetimeMs?: number;
}

/**
 * VENDOR_B simulator: speaks the `twoWayInfo` style over HTTP. OAuth client-credentials tokens
 * (JWT, 7 days), URL-encoded JSON answers, RSA PKCS#1 v1.5 identity, CF-03002 to continue, a
 * two-way lifetime of 270 s, replay protection on the jti.
 */
export class VendorBSimulator extends VendorSimulator {
  /** Vendor-encrypted identity fields the simulator received, for privacy assertions in tests. */
  readonly observedCiphertexts: string[] = [];
  readonly tokenCalls = { count: 0 };
  private tokenKey = randomBytes(32);
  private readonly tokenLifetimeMs: number;

  constructor(
    readonly account: VendorBSimulatorAccount,
    options: VendorBSimulatorOptions = {},
  ) {
    super('VENDOR_B', { ttlMs: 270_000, rejectCode: 'CF-12102', garbledBody: '%7B%22result%22%3A%7B%22code' }, options);
    this.tokenLifetimeMs = options.tokenLifetimeMs ?? 7 * 24 * 3600 * 1000;
    // Outside the vendor scope: control calls are neither counted nor subject to faults.
    this.app.post('/_control/revoke-tokens', async () => {
      this.revokeTokens();
      return { revoked: true };
    });
  }

  /** Every token issued so far stops working (the next product call gets 401 invalid_token). */
  revokeTokens(): void {
    this.tokenKey = randomBytes(32);
  }

  protected registerVendorRoutes(scope: FastifyInstance): void {
    scope.removeContentTypeParser(['application/json']);
    scope.addContentTypeParser(
      ['application/json', 'application/x-www-form-urlencoded'],
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    );

    scope.post('/oauth/token', async (request, reply) => this.issueToken(request, reply));

    for (const [document, path] of Object.entries(VENDOR_B_PRODUCTS) as Array<[CertificateDocument, string]>) {
      scope.post(path, async (request, reply) => {
        if (!(await this.tokenIsValid(request.headers.authorization))) {
          return reply.code(401).send({ error: 'invalid_token', error_description: 'Cannot convert access token' });
        }
        let result: VendorBResult;
        try {
          result = this.handle(document, request.body);
        } catch (error) {
          if (!(error instanceof VendorBResult)) throw error;
          result = error;
        }
        const transactionId = randomBytes(12).toString('hex');
        return reply.type('application/json; charset=utf-8').send(
          urlEncoded({
            result: { code: result.code, message: result.message, extraMessage: '', transactionId },
            data: result.data,
          }),
        );
      });
    }
  }

  private async issueToken(request: FastifyRequest, reply: FastifyReply) {
    this.tokenCalls.count++;
    const expected = Buffer.from(`${this.account.clientId}:${this.account.clientSecret}`);
    const given = Buffer.from(/^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '', 'base64');
    const params = new URLSearchParams(String(request.body ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply.code(401).send({ error: 'invalid_client' });
    }
    if (params.get('grant_type') !== 'client_credentials') {
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    }
    const now = this.clock.now();
    const exp = Math.floor((now + this.tokenLifetimeMs) / 1000);
    const accessToken = await new SignJWT({ scope: ['read'], client_id: this.account.clientId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(exp)
      .setJti(randomBytes(8).toString('hex'))
      .sign(this.tokenKey);
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: Math.floor(this.tokenLifetimeMs / 1000),
      scope: 'read',
    } satisfies VendorBTokenResponse;
  }

  private async tokenIsValid(authorization: string | undefined): Promise<boolean> {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    if (!token) return false;
    try {
      await jwtVerify(token, this.tokenKey, { currentDate: new Date(this.clock.now()), algorithms: ['HS256'] });
      return true;
    } catch {
      return false;
    }
  }

  private handle(document: CertificateDocument, rawBody: unknown): VendorBResult {
    let body: Partial<VendorBRequestBody>;
    try {
      body = decodeUrlEncodedJson(String(rawBody ?? '')) as Partial<VendorBRequestBody>;
    } catch {
      throw new VendorBResult('CF-00002', 'JSON 형식이 올바르지 않습니다 (bad JSON).');
    }
    if (typeof body !== 'object' || body === null) throw new VendorBResult('CF-00002', 'bad JSON');
    if (body.organization !== VENDOR_B_ORGANIZATION || body.loginType !== '6' || body.identityEncYn !== 'Y') {
      throw new VendorBResult('CF-00007', 'organization, loginType or identityEncYn is invalid.');
    }
    if (typeof body.loginTypeLevel !== 'string' || !ACCEPTED_LEVELS.has(body.loginTypeLevel)) {
      throw new VendorBResult('CF-00007', 'loginTypeLevel is invalid.');
    }
    const number = this.decryptNumber(body);
    if (formOf(document) === 'family') {
      if (
        ![body.fatherName, body.motherName, body.spouseName, body.childName].some((n) => typeof n === 'string' && n)
      ) {
        throw new VendorBResult('CF-00001', 'A family member name is required.');
      }
    } else if (!body.addrSido || !body.addrSiGunGu) {
      throw new VendorBResult('CF-00001', 'addrSido and addrSiGunGu are required.');
    }
    const personDigest = createHash('sha256').update(`${document}|${body.loginTypeLevel}|${number}`).digest('hex');

    if (body.is2Way === undefined && body.twoWayInfo === undefined) {
      const session = this.sessions.create({
        id: randomBytes(12).toString('hex'),
        document,
        provider: body.loginTypeLevel,
        personDigest,
      });
      throw new VendorBResult(
        'CF-03002',
        '성공적으로 처리되었습니다. 추가 정보를 입력하세요.',
        this.twoWayDataOf(session),
      );
    }
    const info = body.twoWayInfo as Partial<TwoWayInfo> | undefined;
    if (body.is2Way !== true || body.simpleAuth !== '1' || !info || typeof info.jti !== 'string') {
      throw new VendorBResult('CF-03003', 'twoWayInfo is required for the second request.');
    }
    const session = this.sessions.get(info.jti);
    if (
      !session ||
      session.document !== document ||
      info.jobIndex !== 0 ||
      info.threadIndex !== 0 ||
      info.twoWayTimestamp !== session.createdAt
    ) {
      throw new VendorBResult('CF-03003', 'twoWayInfo is invalid.');
    }
    if (session.personDigest !== personDigest) throw new VendorBResult('CF-12835', 'Identity check failed.');
    switch (this.sessions.statusOf(session)) {
      case 'pending':
        throw new VendorBResult('CF-03002', '추가 인증이 완료되지 않았습니다.', this.twoWayDataOf(session));
      case 'rejected':
        throw new VendorBResult(session.rejectedCode ?? 'CF-12102', 'The authentication was refused.');
      case 'expired':
        throw new VendorBResult('CF-12001', '사용자 입력 시간이 초과되었습니다 (timed out).');
      case 'consumed':
        throw new VendorBResult('CF-00025', '이미 처리된 요청입니다 (already answered).');
      case 'approved': {
        this.sessions.consume(session);
        const reference = `SIM-B-${randomBytes(6).toString('hex').toUpperCase()}`;
        return new VendorBResult('CF-00000', '성공', {
          resOriGinalData: simulatedPdf(document, 'VENDOR_B', reference).toString('base64'),
          resIssueNo: reference,
        });
      }
    }
  }

  private twoWayDataOf(session: SimulatedSession): VendorBResponseBody['data'] {
    return {
      jobIndex: 0,
      threadIndex: 0,
      jti: session.id,
      twoWayTimestamp: session.createdAt,
      continue2Way: true,
      method: 'simpleAuth',
      extraInfo: { commSimpleAuth: '' },
    };
  }

  private decryptNumber(body: Partial<VendorBRequestBody>): string {
    if (typeof body.identity !== 'string' || typeof body.birthDate !== 'string' || !/^\d{6}$/.test(body.birthDate)) {
      throw new VendorBResult('CF-00001', 'identity and birthDate are required.');
    }
    this.observedCiphertexts.push(body.identity);
    if (this.observedCiphertexts.length > 1000) this.observedCiphertexts.shift();
    let number: string;
    try {
      number = decryptForVendorB(body.identity, this.account.privateKey);
    } catch {
      throw new VendorBResult('CF-00007', 'identity could not be decrypted.');
    }
    if (!/^\d{13}$/.test(number) || !number.startsWith(body.birthDate)) {
      throw new VendorBResult('CF-13000', '주민등록번호가 올바르지 않습니다 (bad resident registration number).');
    }
    return number;
  }
}
