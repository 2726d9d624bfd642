import { describe, expect, it } from 'vitest';
import { type CertificateApi, createCertificateApi } from '../../src/api/certificate-api.js';
import { CertificateApiError } from '../../src/api/certificate-api-error.js';
import type { CertificateRequest } from '../../src/funnel/certificate-request.js';

interface Seen {
  url: string;
  init: RequestInit;
}

function apiAnswering(respond: (seen: Seen) => Response | Promise<Response>): { api: CertificateApi; seen: Seen[] } {
  const seen: Seen[] = [];
  const api = createCertificateApi({
    baseUrl: 'https://ferry.test/',
    getToken: async () => 'user-token',
    fetch: async (url, init = {}) => {
      const call = { url: String(url), init };
      seen.push(call);
      return respond(call);
    },
  });
  return { api, seen };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const REQUEST: CertificateRequest = {
  document: 'family-relations',
  body: {
    vendor: 'VENDOR_A',
    loginOrgCd: 'provider_a',
    rrn1: '900101',
    rrn2Enc: 'AAAA',
    fthrNm: '홍길동',
    stepData: null,
    twoWayInfo: null,
    assignmentId: null,
  },
};
const FIRST = { preSignedUrl: null, stepData: 'S', twoWayInfo: null };

describe('certificate API client', () => {
  it.each([
    ['resident-certificate', 'residentCertificate'],
    ['resident-abstract', 'residentAbstract'],
    ['family-relations', 'familyRelationsCertificate'],
  ] as const)('posts %s to its endpoint and unwraps %s', async (document, wrapper) => {
    const { api, seen } = apiAnswering(() => json(200, { [wrapper]: FIRST }));
    const response = await api.requestCertificate({ ...REQUEST, document } as CertificateRequest);
    expect(response).toEqual(FIRST);
    expect(seen[0]?.url).toBe(`https://ferry.test/v2/user/certificate/${document}`);
    expect(seen[0]?.init.method).toBe('POST');
    const headers = seen[0]?.init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer user-token');
    expect(headers['content-type']).toBe('application/json');
    expect(JSON.parse(String(seen[0]?.init.body))).toEqual(REQUEST.body);
  });

  it('turns an error body into a CertificateApiError with its status and code', async () => {
    const { api } = apiAnswering(() =>
      json(409, { error: { code: 'AUTH_PENDING', message: 'Not approved yet.', details: {} } }),
    );
    const error = await api.requestCertificate(REQUEST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CertificateApiError);
    expect(error).toMatchObject({ status: 409, code: 'AUTH_PENDING', message: 'Not approved yet.' });
  });

  it('reports a network failure as status 0', async () => {
    const { api } = apiAnswering(() => {
      throw new TypeError('fetch failed');
    });
    await expect(api.requestCertificate(REQUEST)).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it.each([
    ['an HTML error page', () => new Response('<html>bad gateway</html>', { status: 502 }), 502],
    ['a success with the wrong wrapper', () => json(200, { residentCertificate: FIRST }), 200],
    ['a success that is not JSON', () => new Response('ok', { status: 200 }), 200],
  ])('reports %s as INVALID_RESPONSE', async (_case, respond, status) => {
    const { api } = apiAnswering(respond);
    await expect(api.requestCertificate(REQUEST)).rejects.toMatchObject({ status, code: 'INVALID_RESPONSE' });
  });

  it('reads an assignment for its certificateVendor', async () => {
    const assignment = {
      id: '7f1c2b9e-3b1a-4a55-9d1e-0c7b6a1f2e3d',
      certificateVendor: 'VENDOR_B',
      title: null,
      createdAt: '2025-01-01T00:00:00.000Z',
    };
    const { api, seen } = apiAnswering(() => json(200, { assignment }));
    expect(await api.getAssignment(assignment.id)).toEqual(assignment);
    expect(seen[0]?.url).toBe(`https://ferry.test/v2/user/assignments/${assignment.id}`);
  });
});
