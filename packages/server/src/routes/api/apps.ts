import {
  AppListResponse,
  AppParams,
  AppView,
  CreateAppReleaseTokenRequest,
  CreateAppResponse,
  CreateAppWithKeyRequest,
  CreatedAppReleaseToken,
  DEFAULT_APP,
  ErrorBody,
  RotateAppKeyRequest,
  RotateAppKeyResponse,
} from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppRegistry } from '../../apps/app-registry.js';
import { sealedSigningKey } from '../../apps/app-signing-material.js';
import { appView } from '../../apps/app-store.js';
import { appNotFound, auditActorOf, requireOperatorAction } from '../../auth/operator-access.js';
import { InvalidInput } from '../../errors/domain-error.js';

export interface AppsRoutesOptions {
  registry: AppRegistry;
  /** An app changed: this instance and the others read it again (its signer, its tracks). */
  onAppChanged: (slug: string) => void;
  perMinute: number;
}

const defaultAppIsConfigured = (what: string) =>
  new InvalidInput([
    {
      path: 'params.slug',
      message: `the default app's key is the configured one (OTA_SIGNING_KEY): ${what} it in the configuration, not here`,
    },
  ]);

/** Apps over HTTP, for admins of every app (the same as `ferry-server apps`; docs/apps.md). */
export function appsRoutes(app: FastifyInstance, options: AppsRoutesOptions): void {
  const route = app.withTypeProvider<ZodTypeProvider>();
  const { registry } = options;
  const common = {
    onRequest: requireOperatorAction('apps.manage'),
    config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute' } },
  };
  const security = [{ releaseToken: [] }];
  const view = (stored: Parameters<typeof appView>[0]) => appView(stored, registry.defaultKeyId);

  route.get(
    '/api/apps',
    {
      ...common,
      schema: {
        summary: 'Every app of this server, archived ones included (admin of every app)',
        tags: ['apps'],
        security,
        response: { 200: AppListResponse, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async () => ({ apps: (await registry.list()).map(view) }),
  );

  route.post(
    '/api/apps',
    {
      ...common,
      schema: {
        summary: 'Create an app with its signing key and first release token (shown once)',
        description:
          'Without `signingKey` a new key and self-signed code-signing certificate are made; the certificate is in ' +
          'the answer (the app embeds it). The key is kept sealed with APP_KEYS_SECRET, never in plain text.',
        tags: ['apps'],
        security,
        body: CreateAppWithKeyRequest,
        response: {
          201: CreateAppResponse,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          409: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { slug, signingKey } = request.body;
      const name = request.body.name ?? slug;
      const key = await sealedSigningKey(registry.requireVault(), slug, name, signingKey);
      const created = await registry.store.create({ slug, name, ...key }, auditActorOf(request, undefined));
      options.onAppChanged(slug);
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ app: view(created.app), releaseToken: created.releaseToken, certificate: key.certificate });
    },
  );

  route.post(
    '/api/apps/:slug/archive',
    {
      ...common,
      schema: {
        summary: 'Archive an app: its devices are still served; nothing more is published or changed',
        tags: ['apps'],
        security,
        params: AppParams,
        response: { 200: AppView, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const { slug } = request.params;
      if (slug === DEFAULT_APP)
        throw new InvalidInput([{ path: 'params.slug', message: 'the default app cannot be archived' }]);
      const archived = await registry.store.archive(slug, auditActorOf(request, undefined));
      if (!archived) throw appNotFound(slug);
      options.onAppChanged(slug);
      return view(archived);
    },
  );

  route.post(
    '/api/apps/:slug/signing-key',
    {
      ...common,
      schema: {
        summary: "Rotate an app's signing key (a new one, or one imported); answers the new certificate",
        description:
          'Builds that embed the old certificate reject updates signed with the new key: ship builds with the new ' +
          'certificate first (docs/apps.md, "Rotating an app\'s key"). Stored releases are signed again on their next request.',
        tags: ['apps'],
        security,
        params: AppParams,
        body: RotateAppKeyRequest,
        response: {
          200: RotateAppKeyResponse,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request) => {
      const { slug } = request.params;
      if (slug === DEFAULT_APP) throw defaultAppIsConfigured('rotate');
      const stored = await registry.store.find(slug);
      if (!stored) throw appNotFound(slug);
      const key = await sealedSigningKey(registry.requireVault(), slug, stored.name, request.body.signingKey);
      const rotated = await registry.store.rotateKey(slug, key, auditActorOf(request, undefined));
      if (!rotated) throw appNotFound(slug);
      options.onAppChanged(slug);
      return { app: view(rotated), certificate: key.certificate };
    },
  );

  route.post(
    '/api/apps/:slug/release-tokens',
    {
      ...common,
      schema: {
        summary: 'Another release token of an app (CI); shown once, only its hash is kept',
        tags: ['apps'],
        security,
        params: AppParams,
        body: CreateAppReleaseTokenRequest,
        response: { 201: CreatedAppReleaseToken, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { slug } = request.params;
      if (slug === DEFAULT_APP) throw defaultAppIsConfigured('set OTA_RELEASE_TOKEN for');
      if (!(await registry.store.find(slug))) throw appNotFound(slug);
      const created = await registry.store.createReleaseToken(
        slug,
        request.body.name,
        auditActorOf(request, undefined),
      );
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ ...created, name: request.body.name });
    },
  );
}
