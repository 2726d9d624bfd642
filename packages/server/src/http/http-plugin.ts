import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ERROR_CATALOGUE_URL } from '@ferry/contracts';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from '../config/config.js';
import { DomainError } from '../errors/domain-error.js';
import { AuthFailures, authFailureKey } from './auth-failures.js';
import { bodyDeadline } from './body-deadline.js';
import { declareCommonResponses } from './common-responses.js';
import { installErrorHandling } from './error-handler.js';
import { logsRequestLines } from './logger.js';
import { connectRateLimitRedis } from './rate-limit-redis.js';
import { breakerRedisStore } from './rate-limit-store.js';
import { RedisBreaker } from './redis-breaker.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The circuit breaker in front of the rate-limit Redis; undefined without REDIS_URL. */
    rateLimitBreaker: RedisBreaker | undefined;
  }
}

/**
 * zod's JSON Schemas, where a response declared `z.null()` means no body at all (a 204, a 304, an
 * upload's 201): @fastify/swagger leaves the content out for a `type: 'null'` schema, where zod's
 * OpenAPI 3.0 form of `null` would declare a JSON body.
 */
const documentTransform: typeof jsonSchemaTransform = (input) => {
  const { schema, url } = jsonSchemaTransform(input);
  const response = (schema as { response?: Record<string, unknown> } | undefined)?.response;
  if (!response) return { schema, url };
  const bodiless = Object.entries(response)
    .filter(([, declared]) => isNullOnly(declared))
    .map(([status, declared]) => [
      status,
      {
        type: 'null',
        description: (declared as { description?: string }).description ?? BODILESS[status] ?? 'No body',
      },
    ]);
  return { schema: { ...schema, response: { ...response, ...Object.fromEntries(bodiless) } }, url };
};

const BODILESS: Record<string, string> = { '204': 'No content', '304': 'Not modified' };

const isNullOnly = (declared: unknown): boolean => {
  const values = (declared as { enum?: unknown[] } | undefined)?.enum;
  return Array.isArray(values) && values.length === 1 && values[0] === null;
};

export interface HttpPluginOptions {
  limits: Config['limits'];
  /** How long a request's body may take to arrive (BODY_TIMEOUT_MS; uploads extend it). */
  bodyTimeoutMs: number;
  version: string;
}

/**
 * What every route shares: zod validation and serialisation, the one error handler, request logs,
 * prompt shutdown of keep-alive sockets, the body deadline, the OpenAPI document (/docs), rate
 * limiting (shared through Redis when REDIS_URL is set) and the count of refused credentials
 * (`app.authFailures`). fastify-plugin: it applies to the whole application.
 */
export const httpPlugin = fp<HttpPluginOptions>(
  async (app, options) => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandling(app);
    // Before every route: the refusals all routes share are declared in one place.
    declareCommonResponses(app);
    app.addHook('onRequest', bodyDeadline(options.bodyTimeoutMs));

    // A keep-alive socket whose response finishes after close() began would stay open until the
    // keep-alive timeout and hold up shutdown: end it as soon as its response is done.
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    // Request logs at debug: at info they would dominate the manifest hot path.
    // Callback style: no promise per request on the hot path.
    app.addHook('onResponse', (request, reply, done) => {
      // Deferred: the response may still sit corked in the socket when 'finish' fires.
      if (closing) setImmediate(() => request.raw.socket?.end());
      if (logsRequestLines(request.log)) {
        request.log.debug(
          {
            method: request.method,
            url: request.routeOptions.url ?? 'unmatched',
            status: reply.statusCode,
            ms: reply.elapsedTime,
          },
          'request',
        );
      }
      done();
    });

    // External plugins first, then Ferry's own (fastify/demo's order).
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Ferry',
          version: options.version,
          description:
            'OTA release registry and certificate issuance. Every refusal carries the common error body ' +
            `{ error: { code, message, details } }; the error catalogue lists every code with its status and meaning: ${ERROR_CATALOGUE_URL}`,
        },
        externalDocs: {
          description: 'Error codes: every code Ferry answers, its status and meaning',
          url: ERROR_CATALOGUE_URL,
        },
        components: { securitySchemes: { releaseToken: { type: 'http', scheme: 'bearer' } } },
      },
      transform: documentTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });

    // REDIS_URL: counters shared by every instance. Without it they live in this process.
    const shared = options.limits.redis;
    const redis = shared && (await connectRateLimitRedis(shared.url, app.log, shared.commandTimeoutMs));
    if (redis) {
      app.addHook('onClose', async () => redis.close());
      app.log.info('rate limits are shared through Redis (REDIS_URL)');
    }
    const breaker = redis ? new RedisBreaker(app.log, shared?.breaker) : undefined;
    app.decorate('rateLimitBreaker', breaker);
    await app.register(rateLimit, {
      global: false,
      ...(shared && redis && breaker
        ? {
            // The plugin's Redis store behind a circuit breaker: a Redis that stopped answering
            // costs a few requests the command timeout, then limits fail open at once.
            store: breakerRedisStore(redis.client, shared.keyPrefix, breaker),
            // Fail open: a Redis outage lets requests through unlimited rather than failing them
            // (decisions.md, "Shared rate limits"); rate-limit-redis.ts logs the outage.
            skipOnError: true,
          }
        : {}),
      errorResponseBuilder: (_request, context) => {
        const seconds = Math.ceil(context.ttl / 1000);
        return new DomainError(
          'rate-limited',
          'RATE_LIMITED',
          `Too many requests; retry in ${seconds} s.`,
          { limit: context.max },
          seconds,
        );
      },
    });
    const perMinute = options.limits.authFailuresPerMinute;
    app.decorate(
      'authFailures',
      new AuthFailures(
        app.createRateLimit({ max: perMinute, timeWindow: 60_000, keyGenerator: authFailureKey }),
        perMinute,
      ),
    );
  },
  { name: 'ferry-http' },
);
