import { ERROR_CATALOGUE, type KnownErrorCode } from '@ferry/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DependencyUnavailable, DomainError, type FailureKind, Unauthenticated } from '../errors/domain-error.js';
import { isDatabaseUnavailable } from '../storage/database-unavailable.js';
import { StorageFull, storageFullLine } from '../storage/objects/storage-full.js';
import { errorBody } from './error-body.js';

interface ValidationItem {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

const fieldPath = (item: ValidationItem, context: string | undefined): string => {
  const issuePath = item.params?.issue?.path;
  const inner = issuePath?.length
    ? issuePath.map(String).join('.')
    : (item.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  return [context, inner].filter(Boolean).join('.') || (context ?? 'request');
};

/**
 * The code of a client error Fastify or a plugin raised with a status of its own, by that status
 * (the catalogue's); any other client-error status is BAD_REQUEST.
 */
const CODE_BY_STATUS: ReadonlyMap<number, KnownErrorCode> = new Map<number, KnownErrorCode>(
  (
    [
      'VALIDATION_FAILED',
      'UNAUTHORIZED',
      'FORBIDDEN',
      'NOT_FOUND',
      'METHOD_NOT_ALLOWED',
      'NOT_ACCEPTABLE',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'RATE_LIMITED',
    ] as const
  ).map((code) => [ERROR_CATALOGUE[code].status, code]),
);

/** What each kind of domain failure means over HTTP: the only place a service error gets a status. */
export const STATUS_BY_KIND: Record<FailureKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  'not-acceptable': 406,
  conflict: 409,
  gone: 410,
  'too-large': 413,
  unprocessable: 422,
  'rate-limited': 429,
  'dependency-failed': 502,
  unavailable: 503,
  'dependency-timeout': 504,
  // 507 Insufficient Storage: the object storage had no room; nothing was stored.
  'storage-full': 507,
};

/**
 * Every failure leaves as the common error body, with a code of the error catalogue
 * (@ferry/contracts, docs/errors.md). Bad input is always 4xx; only a bug reaches 500, and its
 * message never echoes the request.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError & { validationContext?: string }, request, reply) => {
    // An outage is not a bug: the request may succeed once the database is back. A request body
    // that broke off (the client went away, or missed its deadline) is ECONNRESET too, but Fastify
    // marks it a client error (statusCode 400): it is not the database.
    const outage = thrown.statusCode === undefined && isDatabaseUnavailable(thrown);
    const err = outage ? new DependencyUnavailable('database') : thrown;
    if (err !== thrown) request.log.warn({ err: thrown }, 'database unavailable');
    if (err instanceof DomainError) {
      // One line an operator can act on: no stack, no path, no key.
      if (err instanceof StorageFull) request.log.error({ store: err.store, reason: err.reason }, storageFullLine);
      if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
      if (err instanceof Unauthenticated) reply.header('www-authenticate', err.challenge);
      reply.code(STATUS_BY_KIND[err.kind]).send(err.toBody());
      return;
    }
    if (err.validation) {
      const fields = (err.validation as ValidationItem[]).map((item) => ({
        path: fieldPath(item, err.validationContext),
        message: item.message ?? 'invalid value',
      }));
      reply.code(400).send(errorBody('VALIDATION_FAILED', 'The request is invalid; see details.fields.', { fields }));
      return;
    }
    if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      reply.code(400).send(errorBody('INVALID_JSON', 'The request body is not valid JSON.'));
      return;
    }
    if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      reply.code(400).send(errorBody('INVALID_JSON', 'The request body is empty but declared as JSON.'));
      return;
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = CODE_BY_STATUS.get(status) ?? 'BAD_REQUEST';
      // Fastify's own 4xx messages describe the request shape, never its content, so they are safe to show.
      reply.code(status).send(errorBody(code, err.message || 'The request was rejected.'));
      return;
    }
    request.log.error({ err }, 'unhandled error');
    reply.code(500).send(errorBody('INTERNAL', 'Something went wrong on our side. The request changed nothing.'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}.`));
  });
}

/**
 * Errors Fastify's router raises before any route runs (a path that is not valid percent-encoding,
 * say): the same common body as every other 400.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  reply
    .code(400)
    .send(
      errorBody(
        'MALFORMED_REQUEST',
        error.code === 'FST_ERR_BAD_URL' ? 'The request path is not valid.' : error.message,
      ),
    );
}
