import { APP_HEADER, AppSlug, BaselineQuery, BaselineResponse, DEFAULT_APP, ErrorBody } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { InvalidInput } from '../../../errors/domain-error.js';
import type { ReleaseService } from '../../../ota/release-service.js';

/** The app a public request names with the `ferry-app` header (the default app without it); 400 for a malformed slug. */
export function appNamedBy(request: FastifyRequest): string {
  const named = request.headers[APP_HEADER];
  if (named === undefined) return DEFAULT_APP;
  const parsed = AppSlug.safeParse(Array.isArray(named) ? named[0] : named);
  if (!parsed.success) {
    throw new InvalidInput([
      { path: `headers.${APP_HEADER}`, message: parsed.error.issues[0]?.message ?? 'not an app slug' },
    ]);
  }
  return parsed.data;
}

/** Unauthenticated on purpose: pull-request runs from forks have no secrets. Rate-limited per IP instead. */
export function baselineFingerprintRoute(
  app: FastifyInstance,
  options: { service: ReleaseService; perMinute: number },
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/updates/baseline-fingerprint',
    {
      config: { rateLimit: { max: options.perMinute, timeWindow: '1 minute' } },
      schema: {
        summary: 'The production baseline fingerprint the guard compares the next release with',
        tags: ['updates'],
        querystring: BaselineQuery,
        response: { 200: BaselineResponse, 400: ErrorBody, 404: ErrorBody },
      },
    },
    // Public, as the manifest is: the app is the one the `ferry-app` header names, else the default app.
    async (request) => options.service.baseline({ ...request.query, app: appNamedBy(request) }),
  );
}
