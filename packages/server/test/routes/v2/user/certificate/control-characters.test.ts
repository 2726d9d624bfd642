import type { CertificateDocument } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bodyFor,
  type CertificateTestServer,
  familyBody,
  newUser,
  residentBody,
  startCertificateServer,
  TEST_OPERATOR_TOKEN,
  unwrap,
} from '../../../../support/certificates.js';
import { describeEachEngine } from '../../../../support/engines.js';
import { rowCounts } from '../../../../support/row-counts.js';

const NUL = '\u0000';
const TWO_WAY = { jobIndex: 0, threadIndex: 0, jti: 'jti', twoWayTimestamp: 1 };

type Row = [field: string, document: CertificateDocument, body: () => Record<string, unknown>];

// A NUL in any one-line text field of the certificate area: 400 naming the field, no vendor call,
// nothing stored, never a 500 (PostgreSQL refuses NUL in text; SQLite would store it).
const rows: Row[] = [
  ['body.sido', 'resident-certificate', () => ({ ...residentBody(), sido: `서울${NUL}특별시` })],
  ['body.sigg', 'resident-abstract', () => ({ ...residentBody({ vendor: 'VENDOR_B' }), sigg: `강남구${NUL}` })],
  ['body.preSignedUrl', 'resident-certificate', () => ({ ...residentBody(), preSignedUrl: `https://x.test/${NUL}` })],
  ['body.stepData', 'resident-abstract', () => residentBody({ stepData: `step${NUL}data` })],
  [
    'body.twoWayInfo.jti',
    'resident-certificate',
    () => residentBody({ vendor: 'VENDOR_B', twoWayInfo: { ...TWO_WAY, jti: `j${NUL}ti` } }),
  ],
  ['body.fthrNm', 'family-relations', () => ({ ...familyBody(), fthrNm: `홍${NUL}길동` })],
  ['body.mthrNm', 'family-relations', () => ({ ...familyBody(), mthrNm: NUL })],
  ['body.sposNm', 'family-relations', () => ({ ...familyBody(), sposNm: `이${NUL}` })],
  ['body.childNm', 'family-relations', () => ({ ...familyBody({ vendor: 'VENDOR_B' }), childNm: `${NUL}홍길순` })],
  ['body.preSignedUrl', 'family-relations', () => ({ ...familyBody(), preSignedUrl: NUL })],
  ['body.birthDate', 'resident-certificate', () => ({ ...residentBody(), birthDate: `88041${NUL}` })],
  ['body.rrn1', 'family-relations', () => ({ ...familyBody(), rrn1: `${NUL}88041` })],
];

describeEachEngine('control characters in certificate requests', (engine) => {
  let server: CertificateTestServer;
  beforeAll(async () => {
    server = await startCertificateServer(engine, { logLevel: 'debug' });
  });
  afterAll(async () => server?.close());

  const countRows = () =>
    rowCounts(server.app.database.db, ['certificate_authentication_states', 'certificate_issuances', 'assignments']);

  const expectRefused = async (response: Response, path: string) => {
    expect(response.status).toBe(400);
    const error = (await response.json()).error;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details.fields.map((field: { path: string }) => field.path)).toContain(path);
  };

  it.each(rows)('a NUL in %s (%s) → 400, nothing stored, no vendor call', async (path, document, body) => {
    const token = await server.tokenFor(newUser());
    const [calls, counts] = [server.vendorCalls(), await countRows()];
    await expectRefused(await server.post(document, body(), token), path);
    expect(server.vendorCalls()).toBe(calls);
    expect(await countRows()).toEqual(counts);
  });

  const createAssignment = (body: Record<string, unknown>) =>
    fetch(`${server.url}/v2/operator/assignments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
      body: JSON.stringify(body),
    });

  it.each([
    ['body.userId', { userId: `alice${NUL}`, certificateVendor: 'VENDOR_A' }],
    ['body.userId', { userId: `a\nb`, certificateVendor: 'VENDOR_B' }],
    ['body.title', { userId: 'alice', certificateVendor: 'VENDOR_A', title: `Sub${NUL}mit` }],
  ])('an assignment with a control character in %s → 400, nothing stored', async (path, body) => {
    const counts = await countRows();
    await expectRefused(await createAssignment(body), path);
    expect(await countRows()).toEqual(counts);
  });

  describe('a user token whose sub has a control character', () => {
    it.each([
      ['a NUL', `user${NUL}x`],
      ['a line break', 'user\nx'],
    ])('%s → 401 on every user endpoint, nothing stored, no vendor call', async (_name, userId) => {
      const token = await server.tokenFor(userId);
      const [calls, counts] = [server.vendorCalls(), await countRows()];
      for (const document of ['resident-certificate', 'family-relations'] as const) {
        const response = await server.post(document, bodyFor(document), token);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer realm="ferry-user"');
        expect((await response.json()).error.code).toBe('UNAUTHORIZED');
      }
      const assignment = await fetch(`${server.url}/v2/user/assignments/00000000-0000-4000-8000-000000000000`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(assignment.status).toBe(401);
      expect(server.vendorCalls()).toBe(calls);
      expect(await countRows()).toEqual(counts);
    });
  });

  it('plain text, DEL included, still goes through', async () => {
    const token = await server.tokenFor(newUser());
    const response = await server.post(
      'family-relations',
      { ...familyBody(), fthrNm: '홍\u007f길동', preSignedUrl: 'https://x.test/a' },
      token,
    );
    expect(response.status).toBe(200);
    expect((await unwrap('family-relations', response)).stepData).toEqual(expect.any(String));
  });
});

describeEachEngine('birth dates that are no date', (engine) => {
  let server: CertificateTestServer;
  beforeAll(async () => {
    server = await startCertificateServer(engine, { logLevel: 'debug' });
  });
  afterAll(async () => server?.close());

  /** The log lines without the fields that are numbers of their own (times, ids), which could hold any digits. */
  const logText = () =>
    JSON.stringify(
      server.logs.entries().map(({ time: _time, pid: _pid, reqId: _reqId, responseTime: _rt, ...rest }) => rest),
    );

  it.each([
    ['resident-certificate', 'birthDate', '970229'],
    ['resident-abstract', 'birthDate', '971131'],
    ['family-relations', 'rrn1', '971341'],
  ] as const)('%s %s → 400 naming the field, the digits in no answer and no log', async (document, field, digits) => {
    const token = await server.tokenFor(newUser());
    const response = await server.post(document, { ...bodyFor(document), [field]: digits }, token);
    expect(response.status).toBe(400);
    const text = await response.text();
    const error = JSON.parse(text).error;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details.fields).toEqual([{ path: `body.${field}`, message: expect.any(String) }]);
    expect(text).not.toContain(digits);
    expect(logText()).not.toContain(digits);
  });

  it.each([
    ['000229', 'resident-certificate'],
    ['960229', 'family-relations'],
  ] as const)('29 February of a leap year (%s) is a date', async (digits, document) => {
    const token = await server.tokenFor(newUser());
    const field = document === 'family-relations' ? 'rrn1' : 'birthDate';
    const response = await server.post(document, { ...bodyFor(document), [field]: digits }, token);
    expect(response.status).toBe(200);
  });
});
