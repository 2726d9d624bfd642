import {
  AUTHENTICATION_ID_HEADER,
  type CertificateDocument,
  certificateV2Response,
  documentTitle,
  ErrorBody,
  RESPONSE_WRAPPER_KEY,
} from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { certifiedUserOf } from '../../../../auth/require-certified-user.js';
import type { IssuanceService, IssueCommand, RequestStopwatch } from '../../../../certificates/issuance-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Vendor and storage time of a certificate request; the rest of its duration is Ferry's own. */
    certificateStopwatch?: RequestStopwatch;
  }
}

export interface CertificateRouteContext {
  service: IssuanceService;
  requireUser: (request: FastifyRequest) => Promise<void>;
  /** One limiter shared by the certificate endpoints, so a user has one budget across them. */
  rateLimit: onRequestHookHandler;
  bodyLimitBytes: number;
}

/**
 * The shape every certificate endpoint shares: user token, per-user rate limit, 16 KiB body,
 * the contract's zod schema, one service call, the document's wrapper key around the answer.
 */
export function certificateIssueRoute<Body extends z.ZodType>(
  app: FastifyInstance,
  context: CertificateRouteContext,
  endpoint: {
    document: CertificateDocument;
    /** The request schema of the document's form. */
    body: Body;
    toCommand: (body: z.infer<Body>, userId: string) => IssueCommand;
  },
): void {
  const wrapperKey = RESPONSE_WRAPPER_KEY[endpoint.document];
  const response: z.ZodType = certificateV2Response(endpoint.document);
  app.withTypeProvider<ZodTypeProvider>().post(
    `/v2/user/certificate/${endpoint.document}`,
    {
      bodyLimit: context.bodyLimitBytes,
      // Authentication first, then the per-user budget, both before the body is read.
      onRequest: [context.requireUser, context.rateLimit],
      schema: {
        summary: `${documentTitle(endpoint.document)}: first call starts simple authentication, second call issues the PDF`,
        description: `Both answers name the authentication in the \`${AUTHENTICATION_ID_HEADER}\` header; its owner reads it again with GET /v2/user/certificate/authentications/{id}.`,
        tags: ['certificates'],
        body: endpoint.body,
        response: {
          200: response,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          410: ErrorBody,
          422: ErrorBody,
          429: ErrorBody,
          502: ErrorBody,
          504: ErrorBody,
          // The issued PDF could not be stored (STORAGE_FULL); the vendor's lease is released.
          507: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const user = certifiedUserOf(request);
      const stopwatch: RequestStopwatch = { vendorMs: 0, storageMs: 0 };
      request.certificateStopwatch = stopwatch;
      try {
        const { response: result, authenticationId } = await context.service.issue(
          endpoint.toCommand(request.body as z.infer<Body>, user.userId),
          stopwatch,
        );
        reply.header(AUTHENTICATION_ID_HEADER, authenticationId);
        return { [wrapperKey]: result };
      } finally {
        reply.header(
          'server-timing',
          `vendor;dur=${stopwatch.vendorMs.toFixed(1)}, storage;dur=${stopwatch.storageMs.toFixed(1)}`,
        );
      }
    },
  );
}
