import { createHash, randomBytes } from 'node:crypto';
import { CertificateDocument } from '@ferry/contracts';
import { type SimulatorOptions, simulatedPdf, VendorSimulator, type VendorSimulatorDefinition } from '@ferry/dev-tools';
import type { FastifyInstance } from 'fastify';
import { TEST_VENDOR, type TestVendorAnswer, type TestVendorRequestBody } from './wire.js';

export interface TestVendorSimulatorAccount {
  key: string;
}

/**
 * The test vendor's simulator: the dev-tools base gives it sessions, the clock and /_control
 * (approve, reject, faults); this class adds only its wire format.
 */
class TestVendorSimulator extends VendorSimulator {
  constructor(
    readonly account: TestVendorSimulatorAccount,
    options: SimulatorOptions,
  ) {
    super(TEST_VENDOR, { ttlMs: 120_000, rejectCode: 'REFUSED', garbledBody: '{"code":' }, options);
  }

  protected registerVendorRoutes(scope: FastifyInstance): void {
    scope.post<{ Params: { document: string }; Body: Partial<TestVendorRequestBody> }>(
      '/issue/:document',
      async (request, reply) => {
        if (request.headers.authorization !== `Key ${this.account.key}`) return reply.code(401).send({ code: 'KEY' });
        return this.answer(request.params.document, request.body ?? {});
      },
    );
  }

  private answer(documentName: string, body: Partial<TestVendorRequestBody>): TestVendorAnswer {
    const document = CertificateDocument.safeParse(documentName);
    if (!document.success || typeof body.number !== 'string' || typeof body.provider !== 'string') {
      return { code: 'BAD-REQUEST' };
    }
    const personDigest = createHash('sha256').update(`${document.data}|${body.provider}|${body.number}`).digest('hex');
    if (body.session === undefined) {
      const session = this.sessions.create({
        id: randomBytes(16).toString('hex'),
        document: document.data,
        provider: body.provider,
        personDigest,
      });
      return { code: 'STARTED', session: session.id };
    }
    const session = this.sessions.get(body.session);
    if (!session || session.document !== document.data || session.personDigest !== personDigest) {
      return { code: 'BAD-SESSION' };
    }
    switch (this.sessions.statusOf(session)) {
      case 'pending':
        return { code: 'WAIT' };
      case 'rejected':
        return { code: session.rejectedCode ?? 'REFUSED' };
      case 'expired':
      case 'consumed':
        return { code: 'GONE' };
      case 'approved': {
        this.sessions.consume(session);
        const reference = `SIM-T-${randomBytes(4).toString('hex').toUpperCase()}`;
        return { code: 'OK', pdf: simulatedPdf(document.data, TEST_VENDOR, reference).toString('base64'), reference };
      }
    }
  }
}

/** How a server (or `ferry vendor-sim`) starts it, and the variables that point a server at it. */
export const testVendorSimulator: VendorSimulatorDefinition<TestVendorSimulatorAccount> = {
  vendor: TEST_VENDOR,
  cliName: 't',
  style: 'stepData style',
  account: async (env = {}) => ({ key: env.TEST_VENDOR_KEY || randomBytes(12).toString('hex') }),
  create: (account, options) => new TestVendorSimulator(account, options),
  env: (url, account) => ({ TEST_VENDOR_URL: url, TEST_VENDOR_KEY: account.key }),
};
