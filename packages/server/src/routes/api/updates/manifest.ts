import type { IncomingHttpHeaders } from 'node:http';
import { ErrorBody, Manifest, type ManifestNamespace } from '@ferry/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../../errors/domain-error.js';
import type { FerryMetrics } from '../../../metrics/ferry-metrics.js';
import { manifestAnswer, PROTOCOL_HEADERS } from '../../../ota/manifest/manifest-answer.js';
import { NO_RELEASE, outcomeLabel } from '../../../ota/manifest/manifest-outcome.js';
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
  options: { service: ManifestService; reports?: DeviceReports; metrics?: FerryMetrics },
): void {
  const count = (
    reply: FastifyReply,
    outcome: Parameters<FerryMetrics['manifestAnswered']>[0],
    headers: IncomingHttpHeaders,
    platform?: string,
    channel?: string,
  ) =>
    options.metrics?.manifestAnswered(
      outcome,
      platform ?? String(headers['expo-platform'] ?? headers['ota-platform'] ?? ''),
      channel ?? String(headers['expo-channel-name'] ?? headers['ota-channel-name'] ?? ''),
      reply.elapsedTime / 1000,
    );
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
        // The fast path (manifest-fast-path.ts) answers the same way, outside Fastify.
        response: {
          200: {
            description: 'The signed manifest (or a signed directive, multipart/mixed only), as the accept header asks',
            content: {
              'multipart/mixed': {
                schema: z.string().meta({
                  description: 'Parts `manifest` (or `directive`) and `extensions`, each signed (expo-signature)',
                }),
              },
              'application/expo+json': { schema: Manifest },
              'application/json': { schema: Manifest },
            },
          },
          204: z.null().meta({ description: 'No newer update for this device' }),
          400: ErrorBody,
          406: ErrorBody,
        },
      },
    },
    // Synchronous on the hot path, returning nothing: an async handler that returns `reply` makes
    // Fastify wait for the response to finish (Reply is a thenable), which cost a fifth of the
    // throughput of a cached manifest (bench:manifest).
    (request, reply) => {
      const parsed = parseManifestRequest(request.headers);
      reply.headers(PROTOCOL_HEADERS[parsed.ns]);
      if (!parsed.ok) {
        count(reply, 'refused', request.headers);
        throw new DomainError(
          parsed.status === 406 ? 'not-acceptable' : 'invalid',
          parsed.code,
          parsed.message,
          parsed.details,
        );
      }
      const format = negotiateManifestFormat(request.headers.accept);
      if (!format) {
        count(reply, 'refused', request.headers);
        throw new DomainError(
          'not-acceptable',
          'NOT_ACCEPTABLE',
          'The manifest is served as multipart/mixed, application/expo+json or application/json; the accept header allows none of them.',
          { available: ['multipart/mixed', 'application/expo+json', 'application/json'] },
        );
      }
      // Valid requests report what the device runs and what failed on it, whatever the answer.
      options.reports?.observe(request.headers, parsed.runningUpdateId);
      const clientId = clientIdOf(request.headers);
      const cached = options.service.resolveCached(parsed, clientId);
      const { platform, channel, runtimeVersion } = parsed.request;
      const answer = (outcome: ManifestOutcome) => {
        if (outcome === NO_RELEASE) {
          // "My update never arrives": the track the device asks for has nothing published.
          options.metrics?.manifestNoRelease(platform, channel, runtimeVersion);
          request.log.debug(
            { channel, platform, runtimeVersion },
            'manifest: no release on this track (channel, platform and runtime version as the device sent them); answered no update',
          );
        }
        // A directive the accept header cannot carry is refused (406) by sendOutcome.
        count(
          reply,
          outcome.kind === 'directive' && format !== 'multipart' ? 'refused' : outcomeLabel(outcome),
          request.headers,
          platform,
          channel,
        );
        sendOutcome(reply, outcome, format, parsed.ns);
      };
      if (cached) {
        answer(cached);
        return;
      }
      return options.service.resolve(parsed.request, parsed.ns, clientId).then(answer, (error: unknown) => {
        count(reply, 'error', request.headers, platform, channel);
        throw error;
      });
    },
  );
}
