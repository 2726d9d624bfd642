import { ErrorBody, Manifest, trackOf } from '@ferry/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../../errors/domain-error.js';
import type { FerryMetrics } from '../../../metrics/ferry-metrics.js';
import { PROTOCOL_HEADERS } from '../../../ota/manifest/manifest-answer.js';
import { manifestAnswer, type TrackEntry } from '../../../ota/manifest/manifest-decision.js';
import { headersOfRole, pickHeadersOf, sharedHeader } from '../../../ota/manifest/manifest-headers.js';
import { negotiateManifestFormat, parseManifestRequest } from '../../../ota/manifest/manifest-request.js';
import type { ManifestService } from '../../../ota/manifest/manifest-service.js';
import type { DeviceReports } from '../../../ota/reports/device-reports.js';

const list = (names: string[]) => names.join(', ');

/** GET /api/updates/manifest: unauthenticated; integrity comes from the signature the app verifies. */
export function manifestRoute(
  app: FastifyInstance,
  options: { service: ManifestService; reports?: DeviceReports; metrics?: FerryMetrics },
): void {
  const count = (
    reply: FastifyReply,
    outcome: Parameters<FerryMetrics['manifestAnswered']>[0],
    platform: string,
    channel: string,
  ) => options.metrics?.manifestAnswered(outcome, platform, channel, reply.elapsedTime / 1000);
  app.get(
    '/api/updates/manifest',
    {
      schema: {
        summary: 'The signed manifest of the newest release of a track (Expo Updates protocol v1)',
        description:
          `The track is named by ${list(headersOfRole('track'))}; ${list(headersOfRole('selects'))} pick its answer; ` +
          `${list(headersOfRole('refuses'))} can only refuse; ${list(headersOfRole('reports'))} feed device reports. ` +
          '`<ns>` is `ota` or `expo`; the answer uses the same namespace. 204 when there is no newer update ' +
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
    // Synchronous when the track is in memory, returning nothing: an async handler that returns
    // `reply` makes Fastify wait for the response to finish (Reply is a thenable).
    (request, reply) => {
      const picked = pickHeadersOf(request.headers);
      const parsed = parseManifestRequest(picked, options.service.cachedTrack);
      reply.headers(PROTOCOL_HEADERS[parsed.ns]);
      // A refusal is counted under the platform and channel as sent.
      const refused = () =>
        count(
          reply,
          'refused',
          String(request.headers['expo-platform'] ?? request.headers['ota-platform'] ?? ''),
          String(request.headers['expo-channel-name'] ?? request.headers['ota-channel-name'] ?? ''),
        );
      if (!parsed.ok) {
        refused();
        throw new DomainError(
          parsed.status === 406 ? 'not-acceptable' : 'invalid',
          parsed.code,
          parsed.message,
          parsed.details,
        );
      }
      const format = negotiateManifestFormat(sharedHeader(picked, 'accept'));
      if (!format) {
        refused();
        throw new DomainError(
          'not-acceptable',
          'NOT_ACCEPTABLE',
          'The manifest is served as multipart/mixed, application/expo+json or application/json; the accept header allows none of them.',
          { available: ['multipart/mixed', 'application/expo+json', 'application/json'] },
        );
      }
      // Valid requests report what the device runs and what failed on it, whatever the answer.
      options.reports?.observe(picked, parsed.request, parsed.clientId);
      const { platform, channel, runtimeVersion } = parsed.request;
      const send = (track: TrackEntry) => {
        const answer = manifestAnswer(track, parsed, format, options.service.upToDate);
        if (!answer) {
          count(reply, 'refused', platform, channel);
          throw new DomainError(
            'not-acceptable',
            'NOT_ACCEPTABLE',
            'This track answers with a directive (roll back to the embedded bundle), which only multipart/mixed can carry; the accept header does not allow it.',
            { available: ['multipart/mixed'] },
          );
        }
        if (answer.noRelease) {
          // "My update never arrives": the track the device asks for has nothing published.
          options.metrics?.manifestNoRelease(platform, channel, runtimeVersion);
          request.log.debug(
            { channel, platform, runtimeVersion },
            'manifest: no release on this track (channel, platform and runtime version as the device sent them); answered no update',
          );
        }
        count(reply, answer.label, platform, channel);
        reply.code(answer.status).headers(answer.headers);
        if (answer.body) reply.send(answer.body);
        else reply.send();
      };
      if (parsed.found) return send(parsed.found);
      return options.service.track(trackOf(parsed.request)).then(send, (error: unknown) => {
        count(reply, 'error', platform, channel);
        throw error;
      });
    },
  );
}
