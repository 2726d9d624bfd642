import { z } from 'zod';
import { CertificateDocument } from './documents.js';
import { ProviderCode } from './providers.js';
import { CERTIFICATE_VENDOR_FACTS, type VendorFacts } from './vendor.js';

/**
 * The response header of both certificate calls that names the authentication they started or
 * completed. A client keeps this id (never the person's number) to read the authentication again
 * after a reload: `GET /v2/user/certificate/authentications/:id`.
 */
export const AUTHENTICATION_ID_HEADER = 'ferry-authentication-id';

export const authenticationPath = (id: string): string =>
  `/v2/user/certificate/authentications/${encodeURIComponent(id)}`;

/**
 * Where an authentication stands, as its owner may read it: `pending` (the second call may still
 * complete it), `issued` (a document was issued for it), `expired` (not issued, and past the
 * vendor's approval window).
 */
export const AUTHENTICATION_STATUSES = ['pending', 'issued', 'expired'] as const;
export const AuthenticationStatus = z.enum(AUTHENTICATION_STATUSES);
export type AuthenticationStatus = z.infer<typeof AuthenticationStatus>;

/**
 * The issued document's link: signed until `expiresAt` (the issuance plus CERT_URL_TTL_SECONDS), so
 * reading it again never lengthens its validity; null once that has passed or the PDF was removed.
 * `remainingSeconds` is what is left of it when the server answered: a client shows the end by its
 * own clock from it, whatever the two clocks' difference.
 */
export const IssuedCertificateLink = z.object({
  preSignedUrl: z.string().nullable(),
  expiresAt: z.iso.datetime(),
  remainingSeconds: z.number().int().nonnegative(),
});
export type IssuedCertificateLink = z.infer<typeof IssuedCertificateLink>;

/** The authentication schemas for a list of vendors: the built-in list (the exports below), or a server's registry. */
export function authenticationSchemas<const V extends readonly VendorFacts[]>(vendors: V) {
  const authentication = z.object({
    id: z.uuid(),
    document: CertificateDocument,
    vendor: z.enum(vendors.map((vendor): V[number]['id'] => vendor.id)),
    provider: ProviderCode,
    assignmentId: z.uuid().nullable(),
    status: AuthenticationStatus,
    /** How long the vendor waits for the person's approval (`<VENDOR>_AUTH_TTL_SECONDS`). */
    approvalWindowSeconds: z.number().int().positive(),
    /** When the approval window of this authentication ends. */
    approvalExpiresAt: z.iso.datetime(),
    /** Only when issued. */
    certificate: IssuedCertificateLink.nullable(),
  });
  return { authentication, response: z.object({ authentication }) };
}

const BUILT_IN = authenticationSchemas(CERTIFICATE_VENDOR_FACTS);

export const CertificateAuthentication = BUILT_IN.authentication;
export type CertificateAuthentication = z.infer<typeof CertificateAuthentication>;

export const CertificateAuthenticationResponse = BUILT_IN.response;
export type CertificateAuthenticationResponse = z.infer<typeof CertificateAuthenticationResponse>;

export const AuthenticationParams = z.object({ id: z.uuid() });
