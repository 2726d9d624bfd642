import {
  AppSlug,
  CODE_SIGNING_ALGORITHM,
  CodeSigningQuery,
  CodeSigningResponse,
  codeSigningProofBody,
  DEFAULT_APP,
  ErrorBody,
} from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appNotFound } from '../../../auth/operator-access.js';
import type { AppSignerSource } from '../../../ota/manifest/manifest-service.js';

/**
 * Unauthenticated, like the manifest: the certificate is public (every app embeds it), and the proof
 * signs a fixed, non-JSON text around the caller's nonce, which no device would take for a manifest
 * or a directive. Rate-limited per address, as the baseline endpoint is: each answer is one RSA
 * signature.
 */
export function codeSigningRoute(app: FastifyInstance, options: { signers: AppSignerSource; perMinute: number }): void {
  const answer = async (slug: string, nonce: string) => {
    const signer = await options.signers.load(slug);
    if (!signer) throw appNotFound(slug);
    const body = codeSigningProofBody(nonce);
    return {
      keyId: signer.keyId,
      alg: CODE_SIGNING_ALGORITHM,
      certificate: signer.certificatePem,
      proof: { body, signature: signer.signatureHeader(Buffer.from(body, 'utf8')) },
    };
  };
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/apps/:app/code-signing',
    {
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute' } },
      schema: {
        summary: "An app's code-signing certificate and key id, and a signature over a nonce",
        description: 'As /api/updates/code-signing, for the app the path names (docs/apps.md).',
        tags: ['updates'],
        params: z.object({ app: AppSlug }),
        querystring: CodeSigningQuery,
        // 403: a slug longer than the router takes a parameter to be never reaches this route.
        response: { 200: CodeSigningResponse, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return answer(request.params.app, request.query.nonce);
    },
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/updates/code-signing',
    {
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute' } },
      schema: {
        summary: 'The code-signing certificate and key id manifests are signed with, and a signature over a nonce',
        description:
          'Verify `proof.signature` over `proof.body` with the certificate your app embeds (RSA-SHA256, and the ' +
          'signature’s keyid equal to your codeSigningMetadata.keyid): if it fails, your builds reject every update ' +
          'of this server. `ferry publish` and `ferry doctor` do this.',
        tags: ['updates'],
        querystring: CodeSigningQuery,
        response: { 200: CodeSigningResponse, 400: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return answer(DEFAULT_APP, request.query.nonce);
    },
  );
}
