import {
  type Assignment,
  AssignmentResponse,
  AUTHENTICATION_ID_HEADER,
  authenticationPath,
  CERTIFICATE_DOCUMENTS,
  type CertificateAuthentication,
  CertificateAuthenticationResponse,
  type CertificateDocument,
  type CertificateResponse,
  certificatePath,
  certificateV2Response,
  ErrorBody,
  RESPONSE_WRAPPER_KEY,
} from '@ferry/contracts';
import type { z } from 'zod';
import type { CertificateRequest } from '../funnel/certificate-request.js';
import { CertificateApiError } from './certificate-api-error.js';

export interface CertificateApiOptions {
  /** Origin of the Ferry server, e.g. https://api.example.com; '' for the page's own origin. */
  baseUrl: string;
  /** The certified user's token (a JWT); asked for on every call so a host can refresh it. */
  getToken: () => string | Promise<string>;
  fetch?: typeof globalThis.fetch;
}

/** A certificate call's answer: the spec's response object, and the authentication it names (when the server names it). */
export interface CertificateAnswer extends CertificateResponse {
  /** The `ferry-authentication-id` header: what a client keeps to read the authentication again. */
  authenticationId?: string | null;
}

export interface CertificateApi {
  /** POST the certificate endpoint of the request's document and unwrap its response object. */
  requestCertificate(request: CertificateRequest): Promise<CertificateAnswer>;
  /** GET /v2/user/assignments/:id, for entry from an assignment (its certificateVendor). */
  getAssignment(id: string): Promise<Assignment>;
  /** GET /v2/user/certificate/authentications/:id: where an authentication stands, read again (after a reload). */
  getAuthentication(id: string): Promise<CertificateAuthentication>;
}

/** A document's answer, unwrapped from its wrapper key. */
function unwrappedResponse(document: CertificateDocument): z.ZodType<CertificateResponse> {
  const wrapped: z.ZodType<Record<string, CertificateResponse>> = certificateV2Response(document);
  const key = RESPONSE_WRAPPER_KEY[document];
  return wrapped.transform((body) => body[key] as CertificateResponse);
}

const RESPONSE_SCHEMA = new Map(CERTIFICATE_DOCUMENTS.map((document) => [document, unwrappedResponse(document)]));

/** The typed client of the certificate endpoints. Every failure becomes a CertificateApiError. */
export function createCertificateApi(options: CertificateApiOptions): CertificateApi {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function call<T>(
    path: string,
    init: RequestInit,
    schema: z.ZodType<T>,
  ): Promise<{ body: T; headers: Headers }> {
    const token = await options.getToken();
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        ...init,
        headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...init.headers },
      });
    } catch {
      throw new CertificateApiError(0, 'NETWORK_ERROR', 'The certificate service could not be reached.');
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const error = ErrorBody.safeParse(body);
      if (error.success) {
        const { code, message, details } = error.data.error;
        throw new CertificateApiError(response.status, code, message, details);
      }
      throw new CertificateApiError(
        response.status,
        'INVALID_RESPONSE',
        `HTTP ${response.status} without an error body.`,
      );
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new CertificateApiError(response.status, 'INVALID_RESPONSE', 'The response does not match the contract.');
    }
    return { body: parsed.data, headers: response.headers };
  }

  return {
    requestCertificate: async (request) => {
      const { body, headers } = await call(
        certificatePath(request.document),
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request.body) },
        RESPONSE_SCHEMA.get(request.document) ?? unwrappedResponse(request.document),
      );
      return { ...body, authenticationId: headers.get(AUTHENTICATION_ID_HEADER) };
    },
    getAssignment: async (id) =>
      (await call(`/v2/user/assignments/${encodeURIComponent(id)}`, { method: 'GET' }, AssignmentResponse)).body
        .assignment,
    getAuthentication: async (id) =>
      (await call(authenticationPath(id), { method: 'GET' }, CertificateAuthenticationResponse)).body.authentication,
  };
}
