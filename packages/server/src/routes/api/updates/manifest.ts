import type { ManifestNamespace } from '@ferry/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DomainError } from '../../../errors/domain-error.js';
import { manifestAnswer, PROTOCOL_HEADERS } from '../../../ota/manifest/manifest-answer.js';
import {
  clientIdOf,
  type ManifestFormat,
  negotiateManifestFormat,
  parseManifestRequest,
} from '../../../ota/manifest/manifest-request.js';
import type { ManifestOutcome, ManifestService } from '../../../ota/manifest/manifest-service.js';
import type { DeviceReports } from '../../../ota/reports/device-reports.js';

function sendOutcome(
  reply: FastifyReply,
  outcome: ManifestOutcome,
  format: ManifestFormat,
  ns: ManifestNamespace,
): void {
  const answer = manifestAnswer(outcome, format, ns);
  if (!answer) {
    throw new DomainError(
      'not-acceptable',
      'NOT_ACCEPTABLE',
      'This track answers with a directive (roll back to the embedded bundle), which only multipart/mixed can carry; the accept header does not allow it.',
      { available: ['multipart/mixed'] },
    );
  }
  reply.code(answer.status).headers(answer.headers);
  if (answer.body) reply.send(answer.body);
  else reply.send();
}

/** GET /api/updates/manifest: unauthenticated; integrity comes from the signature the app verifies. */
export function manifestRoute(
  app: FastifyInstance,
  options: { service: ManifestService; reports?: DeviceReports },
): void {
  app.get(
    '/api/updates/manifest',
    {
      schema: {
        summary: 'The signed manifest of the newest release of a track (Expo Updates protocol v1)',
        description:
          'Headers `<ns>-platform`, `<ns>-runtime-version`, `<ns>-channel-name`, optional `<ns>-current-update-id`, ' +
          'where `<ns>` is `ota` or `expo`; the answer uses the same namespace. 204 when there is no newer update ' +
          '(a signed `noUpdateAvailable` directive for an expo-updates client accepting multipart/mixed); a ' +
          '`rollBackToEmbedded` directive when the track was rolled back to the embedded bundle; with a rollout, ' +
          '`EAS-Client-ID` decides whether the device gets the new release or the fallback.',
        tags: ['updates'],
      },
    },
    // Synchronous on the hot path, returning nothing: an async handler that returns `reply` makes
    // Fastify wait for the response to finish (Reply is a thenable), which cost a fifth of the
    // throughput of a cached manifest (bench:manifest).
    (request, reply) => {
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
      // Valid requests report what the device runs and what failed on it, whatever the answer.
      options.reports?.observe(request.headers, parsed.request);
      const clientId = clientIdOf(request.headers);
      const cached = options.service.resolveCached(parsed.request, parsed.ns, clientId);
      if (cached) {
        sendOutcome(reply, cached, format, parsed.ns);
        return;
      }
      return options.service.resolve(parsed.request, parsed.ns, clientId).then((outcome) => {
        sendOutcome(reply, outcome, format, parsed.ns);
      });
    },
  );
}
