import { AuthenticationParams, type authenticationSchemas, ErrorBody } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { certifiedUserOf } from '../../../../auth/require-certified-user.js';
import type { IssuanceService } from '../../../../certificates/issuance-service.js';

const iso = (epochMs: number): string => new Date(epochMs).toISOString();

/**
 * GET /v2/user/certificate/authentications/:id: an authentication of the signed-in user, read
 * again (a client resuming after a reload keeps only this id): pending, issued (with the document's
 * link for what is left of its lifetime) or expired. Another user's id answers 404, as a missing one.
 */
export function certificateAuthenticationRoute(
  app: FastifyInstance,
  options: {
    service: IssuanceService;
    requireUser: (request: FastifyRequest) => Promise<void>;
    /** The authentication schemas of the server's vendors (contracts' authenticationSchemas over its registry). */
    schemas: ReturnType<typeof authenticationSchemas>;
  },
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v2/user/certificate/authentications/:id',
    {
      onRequest: options.requireUser,
      schema: {
        summary: 'A simple authentication of the signed-in user, read again: pending, issued or expired',
        description:
          'The id is the `ferry-authentication-id` header of a certificate call. An issued document’s link is signed only until the issuance plus CERT_URL_TTL_SECONDS, however often it is read.',
        tags: ['certificates'],
        params: AuthenticationParams,
        response: { 200: options.schemas.response, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const reading = await options.service.authenticationOf(request.params.id, certifiedUserOf(request).userId);
      // A signed link is in it: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return {
        authentication: {
          id: reading.id,
          document: reading.document,
          vendor: reading.vendor,
          provider: reading.provider,
          assignmentId: reading.assignmentId,
          status: reading.status,
          approvalWindowSeconds: reading.approvalWindowSeconds,
          approvalExpiresAt: iso(reading.approvalExpiresAt),
          certificate: reading.certificate && {
            preSignedUrl: reading.certificate.preSignedUrl,
            expiresAt: iso(reading.certificate.expiresAt),
            remainingSeconds: reading.certificate.remainingSeconds,
          },
        },
      };
    },
  );
}
