import {
  CODE_SIGNING_ALGORITHM,
  CodeSigningQuery,
  CodeSigningResponse,
  codeSigningProofBody,
  ErrorBody,
} from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ManifestSigner } from '../../../signing/manifest-signer.js';

/**
 * Unauthenticated, like the manifest: the certificate is public (every app embeds it), and the proof
 * signs a fixed, non-JSON text around the caller's nonce, which no device would take for a manifest
 * or a directive. Rate-limited per address, as the baseline endpoint is: each answer is one RSA
 * signature.
 */
export function codeSigningRoute(app: FastifyInstance, options: { signer: ManifestSigner; perMinute: number }): void {
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
      const body = codeSigningProofBody(request.query.nonce);
      reply.header('cache-control', 'no-store');
      return {
        keyId: options.signer.keyId,
        alg: CODE_SIGNING_ALGORITHM,
        certificate: options.signer.certificatePem,
        proof: { body, signature: options.signer.signatureHeader(Buffer.from(body, 'utf8')) },
      };
    },
  );
}
