import { AppSlug, DEFAULT_APP, ErrorBody, LEGACY_MANIFEST_PATH, Manifest } from '@ferry/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../../errors/domain-error.js';
import { PROTOCOL_HEADERS } from '../../../ota/manifest/manifest-answer.js';
import { headersOfRole, pickHeaders } from '../../../ota/manifest/manifest-headers.js';
import {
  type ManifestObservers,
  type ManifestReply,
  type ManifestSource,
  observeAnswer,
  replyToManifest,
} from '../../../ota/manifest/manifest-reply.js';

const list = (names: string[]) => names.join(', ');

/**
 * GET /api/apps/<slug>/manifest, and the default app's GET /api/updates/manifest: unauthenticated;
 * integrity comes from the signature the app verifies (signed with its app's key).
 */
export function manifestRoute(app: FastifyInstance, options: ManifestObservers & { service: ManifestSource }): void {
  const schema = (appPath: boolean) => ({
    ...(appPath ? { params: z.object({ app: AppSlug }) } : {}),
    summary: appPath
      ? "The signed manifest of the newest release of a track of an app (Expo Updates protocol v1), signed with the app's key"
      : 'The signed manifest of the newest release of a track of the default app (Expo Updates protocol v1)',
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
      // 403: a slug longer than the router takes a parameter to be never reaches this route.
      ...(appPath ? { 403: ErrorBody, 404: ErrorBody } : {}),
      406: ErrorBody,
    },
  });
  const handler =
    (appOf: (request: FastifyRequest) => string) =>
    // Synchronous when the track is in memory, returning nothing: an async handler that returns
    // `reply` makes Fastify wait for the response to finish (Reply is a thenable).
    (request: FastifyRequest, reply: FastifyReply) => {
      const picked = pickHeaders(request.raw.rawHeaders);
      // A request that is refused or fails is counted under the platform and channel as sent.
      const count = (outcome: 'refused' | 'error') =>
        options.metrics?.manifestAnswered(
          outcome,
          picked.get('expo-platform') ?? picked.get('ota-platform') ?? '',
          picked.get('expo-channel-name') ?? picked.get('ota-channel-name') ?? '',
          reply.elapsedTime / 1000,
        );
      const send = (result: ManifestReply) => {
        reply.headers(PROTOCOL_HEADERS[result.ns]);
        if (!result.ok) {
          count('refused');
          const kind = result.status === 406 ? 'not-acceptable' : 'invalid';
          throw new DomainError(kind, result.code, result.message, result.details);
        }
        observeAnswer(result, picked, options, reply.elapsedTime / 1000);
        if (result.answer.noRelease) {
          const { channel, platform, runtimeVersion } = result.request;
          request.log.debug(
            { channel, platform, runtimeVersion },
            'manifest: no release on this track (channel, platform and runtime version as the device sent them); answered no update',
          );
        }
        reply.code(result.answer.status).headers(result.answer.headers).send(result.answer.body);
      };
      const result = replyToManifest(picked, appOf(request), options.service);
      if (!(result instanceof Promise)) return send(result);
      return result.then(send, (error: unknown) => {
        count('error');
        throw error;
      });
    };
  app.get(
    LEGACY_MANIFEST_PATH,
    { schema: schema(false) },
    handler(() => DEFAULT_APP),
  );
  app.get(
    '/api/apps/:app/manifest',
    { schema: schema(true) },
    handler((request) => (request.params as { app: string }).app),
  );
}
