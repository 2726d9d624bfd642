import { createHash } from 'node:crypto';
import {
  EmbeddedBundleListQuery,
  EmbeddedBundleListResponse,
  EmbeddedBundleQuery,
  EmbeddedBundleResponse,
  ErrorBody,
} from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actAs } from '../../../auth/audit-identity.js';
import { appInViewOf, requireOperatorAction } from '../../../auth/operator-access.js';
import { InvalidInput } from '../../../errors/domain-error.js';
import {
  EmbeddedBundleConflict,
  embeddedBundleKey,
  type KyselyEmbeddedBundles,
} from '../../../ota/patches/kysely-embedded-bundles.js';
import type { ObjectStore } from '../../../storage/objects/object-store.js';

export interface EmbeddedRouteOptions {
  embedded: Pick<KyselyEmbeddedBundles, 'find' | 'register' | 'list'>;
  objects: ObjectStore;
  /** The largest bundle accepted (UPLOAD_LIMIT_BYTES, as for assets). */
  bodyLimit: number;
  /** Called once patches were queued, so they are made now. */
  onQueued: () => void;
  perMinute: number;
  rateKey: (request: FastifyRequest) => string;
}

const BUNDLE_TYPES = ['application/octet-stream', 'application/javascript', 'text/javascript'];

/**
 * `ferry embedded upload`: registers the update a native build embeds, with its launch bundle as
 * the body, so releases on its runtime version get a bundle patch from it (ota/patches).
 * Encapsulated: the raw-body parsers stay inside it.
 */
export async function embeddedRoutes(app: FastifyInstance, options: EmbeddedRouteOptions): Promise<void> {
  for (const type of BUNDLE_TYPES) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: options.bodyLimit }, (_request, body, done) =>
      done(null, body),
    );
  }
  const rateLimit = { max: options.perMinute, timeWindow: '1 minute', keyGenerator: options.rateKey };

  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/updates/embedded',
    {
      bodyLimit: options.bodyLimit,
      onRequest: requireOperatorAction('publish'),
      config: { rateLimit },
      schema: {
        summary:
          'Register the update a native build embeds, with its launch bundle as the body: releases on its runtime version get a bundle patch from it',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        querystring: EmbeddedBundleQuery,
        body: z.any().meta({ description: 'The launch bundle’s bytes (application/octet-stream)' }),
        response: {
          200: EmbeddedBundleResponse.meta({ description: 'Already registered with these bytes; nothing changed' }),
          201: EmbeddedBundleResponse,
          400: ErrorBody,
          401: ErrorBody,
          409: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) {
        throw new InvalidInput([{ path: 'body', message: 'the body must be the launch bundle’s bytes' }]);
      }
      const { platform, runtimeVersion } = request.query;
      const updateId = request.query.updateId.toLowerCase();
      const hash = createHash('sha256').update(body).digest('base64url');
      const known = await options.embedded.find(appInViewOf(request), updateId);
      if (known && known.hash !== hash) throw new EmbeddedBundleConflict(updateId);
      if (known) return reply.code(200).send({ ...known, patchesQueued: 0 });
      const key = embeddedBundleKey(platform, runtimeVersion, hash);
      await options.objects.put(key, body, { contentType: 'application/javascript' });
      const registered = await actAs(request, undefined, (actor) =>
        options.embedded.register(
          appInViewOf(request),
          { platform, runtimeVersion, updateId, hash, bytes: body.length, key },
          actor,
        ),
      );
      if (registered.queued > 0) options.onQueued();
      request.log.info(
        { platform, runtimeVersion, updateId, bytes: body.length, patchesQueued: registered.queued },
        'embedded bundle registered',
      );
      return reply
        .code(registered.created ? 201 : 200)
        .send({ ...registered.bundle, patchesQueued: registered.queued });
    },
  );

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/updates/embedded',
    {
      onRequest: requireOperatorAction('read'),
      config: { rateLimit },
      schema: {
        summary: 'Registered embedded bundles, newest first',
        tags: ['updates'],
        security: [{ releaseToken: [] }],
        querystring: EmbeddedBundleListQuery,
        response: { 200: EmbeddedBundleListResponse, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request) => ({ embedded: await options.embedded.list(appInViewOf(request), request.query) }),
  );
}
