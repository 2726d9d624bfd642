import { type ManifestNamespace, manifestHeaders } from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../../errors/domain-error.js';
import { negotiateManifestFormat, parseManifestRequest } from '../../../ota/manifest/manifest-request.js';
import type { ManifestService } from '../../../ota/manifest/manifest-service.js';

/** Response headers of every manifest answer, 204 included, per namespace (decisions.md §4). */
const protocolHeaders = (ns: ManifestNamespace): Record<string, string> => ({
  [manifestHeaders(ns).protocolVersion]: '1',
  [manifestHeaders(ns).sfvVersion]: '0',
  'cache-control': 'private, max-age=0',
});
const PROTOCOL_HEADERS: Record<ManifestNamespace, Record<string, string>> = {
  ota: protocolHeaders('ota'),
  expo: protocolHeaders('expo'),
};
const SIGNATURE_HEADER: Record<ManifestNamespace, string> = {
  ota: manifestHeaders('ota').signature,
  expo: manifestHeaders('expo').signature,
};

/** GET /api/updates/manifest: unauthenticated; integrity comes from the signature the app verifies. */
export function manifestRoute(app: FastifyInstance, options: { service: ManifestService }): void {
  app.get(
    '/api/updates/manifest',
    {
      schema: {
        summary: 'The signed manifest of the newest release of a track (Expo Updates protocol v1)',
        description:
          'Headers `<ns>-platform`, `<ns>-runtime-version`, `<ns>-channel-name`, optional `<ns>-current-update-id`, ' +
          'where `<ns>` is `ota` or `expo`; the answer uses the same namespace. 204 when there is no newer update.',
        tags: ['updates'],
      },
    },
    async (request, reply) => {
      const parsed = parseManifestRequest(request.headers);
      reply.headers(PROTOCOL_HEADERS[parsed.ns]);
      if (!parsed.ok) {
        throw new DomainError(
          parsed.status === 406 ? 'not-acceptable' : 'invalid',
          parsed.code,
          parsed.message,
          parsed.details,
        );
      }
      const format = negotiateManifestFormat(request.headers.accept);
      if (!format) {
        throw new DomainError(
          'not-acceptable',
          'NOT_ACCEPTABLE',
          'The manifest is served as multipart/mixed, application/expo+json or application/json; the accept header allows none of them.',
          { available: ['multipart/mixed', 'application/expo+json', 'application/json'] },
        );
      }

      const outcome =
        options.service.resolveCached(parsed.request, parsed.ns) ??
        (await options.service.resolve(parsed.request, parsed.ns));
      if (outcome.kind === 'no-update') return reply.code(204).send();
      const { signed } = outcome;
      if (format === 'multipart')
        return reply.header('content-type', signed.multipartContentType).send(signed.multipart);
      // JSON structure: the manifest is the body and its signature moves to a response header.
      return reply
        .header('content-type', format === 'expo+json' ? 'application/expo+json' : 'application/json; charset=utf-8')
        .header(SIGNATURE_HEADER[parsed.ns], signed.signature)
        .send(signed.json);
    },
  );
}
