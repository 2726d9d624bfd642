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

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const AUTHENTICATION_ID = '0b6f3c1e-5a2d-4f8b-9c7e-1d2a3b4c5d6e';

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
    const { api, seen } = apiAnswering(() =>
      json(200, { [wrapper]: FIRST }, { 'ferry-authentication-id': AUTHENTICATION_ID }),
    );
    const response = await api.requestCertificate({ ...REQUEST, document } as CertificateRequest);
    expect(response).toEqual({ ...FIRST, authenticationId: AUTHENTICATION_ID });
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

  it('names no authentication when the server did not', async () => {
    const { api } = apiAnswering(() => json(200, { familyRelationsCertificate: FIRST }));
    expect((await api.requestCertificate(REQUEST)).authenticationId).toBeNull();
  });

  it('reads an authentication again by its id', async () => {
    const authentication = {
      id: AUTHENTICATION_ID,
      document: 'family-relations',
      vendor: 'VENDOR_B',
      provider: 'provider_c',
      assignmentId: null,
      status: 'issued',
      approvalWindowSeconds: 270,
      approvalExpiresAt: '2025-01-01T00:04:30.000Z',
      certificate: {
        preSignedUrl: 'https://objects.test/c.pdf',
        expiresAt: '2025-01-01T00:14:00.000Z',
        remainingSeconds: 420,
      },
    };
    const { api, seen } = apiAnswering(() => json(200, { authentication }));
    expect(await api.getAuthentication(AUTHENTICATION_ID)).toEqual(authentication);
    expect(seen[0]?.url).toBe(`https://ferry.test/v2/user/certificate/authentications/${AUTHENTICATION_ID}`);
    expect(seen[0]?.init.method).toBe('GET');
  });
});
