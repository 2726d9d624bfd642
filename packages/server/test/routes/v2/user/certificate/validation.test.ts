import { randomBytes } from 'node:crypto';
import type { CertificateDocument } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptIdentityPart } from '../../../../../src/certificates/identity-crypto.js';
import {
  type CertificateTestServer,
  encryptBack,
  familyBody,
  newUser,
  PERSON,
  residentBody,
  startCertificateServer,
  TEST_CERT_AES_KEY,
} from '../../../../support/certificates.js';
import { describeEachEngine } from '../../../../support/engines.js';
import { rowCounts } from '../../../../support/row-counts.js';

const aesPayload = (plain: string) => encryptIdentityPart(plain, TEST_CERT_AES_KEY);
const twoWayInfo = { jobIndex: 0, threadIndex: 0, jti: 'abc', twoWayTimestamp: 1 };

type Row = [name: string, document: CertificateDocument, body: Record<string, unknown>, field: string];

// Every validation rule of the issue, each answered 400 VALIDATION_FAILED naming the field,
// with no vendor call and no stored row.
const rows: Row[] = [
  ['birthDate with 5 digits', 'resident-certificate', { ...residentBody(), birthDate: '88041' }, 'body.birthDate'],
  ['birthDate with 7 digits', 'resident-certificate', { ...residentBody(), birthDate: '8804151' }, 'body.birthDate'],
  ['birthDate with letters', 'resident-abstract', { ...residentBody(), birthDate: '88o415' }, 'body.birthDate'],
  ['birthDate as a number', 'resident-abstract', { ...residentBody(), birthDate: 880415 }, 'body.birthDate'],
  ['birthDate month 13', 'resident-certificate', { ...residentBody(), birthDate: '881315' }, 'body.birthDate'],
  ['birthDate month 00', 'resident-certificate', { ...residentBody(), birthDate: '880015' }, 'body.birthDate'],
  ['birthDate 31 April', 'resident-abstract', { ...residentBody(), birthDate: '880431' }, 'body.birthDate'],
  ['birthDate day 00', 'resident-abstract', { ...residentBody(), birthDate: '880400' }, 'body.birthDate'],
  [
    'birthDate 29 February of 1901 / 2001',
    'resident-certificate',
    { ...residentBody(), birthDate: '010229' },
    'body.birthDate',
  ],
  ['rrn1 with 5 digits', 'family-relations', { ...familyBody(), rrn1: '12345' }, 'body.rrn1'],
  ['rrn1 30 February', 'family-relations', { ...familyBody(), rrn1: '000230' }, 'body.rrn1'],
  ['rrn1 32 January', 'family-relations', { ...familyBody(), rrn1: '900132' }, 'body.rrn1'],
  ['rrn1 missing', 'family-relations', { ...familyBody(), rrn1: undefined }, 'body.rrn1'],
  [
    'identityEnc not Base64',
    'resident-certificate',
    { ...residentBody(), identityEnc: 'not base64!' },
    'body.identityEnc',
  ],
  [
    'identityEnc only an IV',
    'resident-certificate',
    { ...residentBody(), identityEnc: randomBytes(16).toString('base64') },
    'body.identityEnc',
  ],
  [
    'identityEnc not whole blocks',
    'resident-certificate',
    { ...residentBody(), identityEnc: randomBytes(40).toString('base64') },
    'body.identityEnc',
  ],
  [
    'identityEnc under another key',
    'resident-certificate',
    { ...residentBody(), identityEnc: encryptIdentityPart(PERSON.back, randomBytes(32)) },
    'body.identityEnc',
  ],
  [
    'identityEnc of 6 digits',
    'resident-abstract',
    { ...residentBody(), identityEnc: aesPayload('157293') },
    'body.identityEnc',
  ],
  [
    'identityEnc of 13 digits',
    'resident-abstract',
    { ...residentBody(), identityEnc: aesPayload(`${PERSON.front}${PERSON.back}`) },
    'body.identityEnc',
  ],
  [
    'identityEnc of letters',
    'resident-abstract',
    { ...residentBody(), identityEnc: aesPayload('abcdefg') },
    'body.identityEnc',
  ],
  ['rrn2Enc not Base64', 'family-relations', { ...familyBody(), rrn2Enc: '%%%%' }, 'body.rrn2Enc'],
  [
    'rrn2Enc under another key',
    'family-relations',
    { ...familyBody(), rrn2Enc: encryptIdentityPart(PERSON.back, randomBytes(32)) },
    'body.rrn2Enc',
  ],
  ['sido empty', 'resident-certificate', { ...residentBody(), sido: '' }, 'body.sido'],
  ['sido blank', 'resident-certificate', { ...residentBody(), sido: '   ' }, 'body.sido'],
  ['sigg missing', 'resident-abstract', { ...residentBody(), sigg: undefined }, 'body.sigg'],
  ['no family name at all', 'family-relations', { ...familyBody(), fthrNm: null }, 'body.fthrNm'],
  ['only blank family names', 'family-relations', { ...familyBody(), fthrNm: ' ', mthrNm: '' }, 'body.fthrNm'],
  [
    'stepData with VENDOR_B',
    'resident-certificate',
    { ...residentBody({ vendor: 'VENDOR_B' }), stepData: 'abc' },
    'body.stepData',
  ],
  [
    'twoWayInfo with VENDOR_A',
    'family-relations',
    { ...familyBody({ vendor: 'VENDOR_A' }), twoWayInfo },
    'body.twoWayInfo',
  ],
  [
    'twoWayInfo without jti',
    'resident-certificate',
    { ...residentBody({ vendor: 'VENDOR_B' }), twoWayInfo: { ...twoWayInfo, jti: undefined } },
    'body.twoWayInfo.jti',
  ],
  [
    'twoWayInfo without twoWayTimestamp',
    'resident-certificate',
    { ...residentBody({ vendor: 'VENDOR_B' }), twoWayInfo: { jobIndex: 0, threadIndex: 0, jti: 'x' } },
    'body.twoWayInfo.twoWayTimestamp',
  ],
  [
    'twoWayInfo with a string jobIndex',
    'resident-abstract',
    { ...residentBody({ vendor: 'VENDOR_B' }), twoWayInfo: { ...twoWayInfo, jobIndex: '0' } },
    'body.twoWayInfo.jobIndex',
  ],
  ['loginOrgCd provider_f', 'resident-certificate', { ...residentBody(), loginOrgCd: 'provider_f' }, 'body.loginOrgCd'],
  ['loginOrgCd a vendor code', 'family-relations', { ...familyBody(), loginOrgCd: 'kakao' }, 'body.loginOrgCd'],
  ['loginOrgCd missing', 'resident-certificate', { ...residentBody(), loginOrgCd: undefined }, 'body.loginOrgCd'],
  ['an unknown vendor', 'resident-certificate', { ...residentBody(), vendor: 'NO_SUCH_VENDOR' }, 'body.vendor'],
  ['an unknown field', 'resident-certificate', { ...residentBody(), phone: '01012345678' }, 'body'],
  ['assignmentId not a UUID', 'resident-abstract', { ...residentBody(), assignmentId: '42' }, 'body.assignmentId'],
];

describeEachEngine('certificate request validation', (engine) => {
  let server: CertificateTestServer;
  let token: string;
  beforeAll(async () => {
    server = await startCertificateServer(engine);
    token = await server.tokenFor(newUser());
  });
  afterAll(async () => server?.close());

  const countRows = () =>
    rowCounts(server.app.database.db, ['certificate_authentication_states', 'certificate_issuances']);

  it.each(rows)('%s → 400 naming the field', async (_name, document, body, field) => {
    const [calls, counts] = [server.vendorCalls(), await countRows()];
    const response = await server.post(document, body, token);
    expect(response.status).toBe(400);
    const text = await response.text();
    const error = JSON.parse(text).error;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details.fields.map((f: { path: string }) => f.path)).toContain(field);
    expect(text).not.toContain(PERSON.back);
    expect(server.vendorCalls()).toBe(calls);
    expect(await countRows()).toEqual(counts);
  });

  describe('the request itself', () => {
    it('malformed JSON → 400 INVALID_JSON', async () => {
      const response = await server.post('resident-certificate', '{"vendor": "VENDOR_A",', token);
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('INVALID_JSON');
    });

    it('a body over 16 KiB → 413 PAYLOAD_TOO_LARGE', async () => {
      const response = await server.post(
        'resident-certificate',
        { ...residentBody(), sido: 'x'.repeat(17 * 1024) },
        token,
      );
      expect(response.status).toBe(413);
      expect((await response.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('the client form state may carry preSignedUrl (ignored)', async () => {
      const response = await server.post('resident-certificate', { ...residentBody(), preSignedUrl: null }, token);
      expect(response.status).toBe(200);
    });

    it('a second family name alone is enough', async () => {
      const body = { ...familyBody(), fthrNm: null, childNm: '홍길순', rrn2Enc: encryptBack() };
      expect((await server.post('family-relations', body, token)).status).toBe(200);
    });
  });
});
