import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  DependencyUnavailable,
  DomainError,
  type FailureKind,
  InvalidInput,
  Unauthenticated,
} from '../errors/domain-error.js';
import { installErrorHandling, STATUS_BY_KIND } from './error-handler.js';

async function answer(error: unknown) {
  const app = Fastify({ logger: false });
  installErrorHandling(app);
  app.get('/', async () => {
    throw error;
  });
  const response = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return response;
}

describe('the one error handler', () => {
  it.each(
    Object.entries({
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
      'storage-full': 507,
    } satisfies Record<FailureKind, number>),
  )('a %s domain error answers %i with its code, message and details', async (kind, status) => {
    expect(STATUS_BY_KIND[kind as FailureKind]).toBe(status);
    const response = await answer(new DomainError(kind as FailureKind, 'NOT_FOUND', 'Said why.', { a: 1 }));
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Said why.', details: { a: 1 } } });
    expect(response.headers['retry-after']).toBeUndefined();
  });

  it('sends Retry-After when the error says when to retry', async () => {
    const response = await answer(new DomainError('conflict', 'AUTH_PENDING', 'Not yet.', {}, 3));
    expect(response.headers['retry-after']).toBe('3');
  });

  it('asks for credentials on Unauthenticated', async () => {
    const response = await answer(new Unauthenticated('A token is required.', 'Bearer realm="ferry"'));
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="ferry"');
    expect(response.json().error.code).toBe('UNAUTHORIZED');
  });

  it('InvalidInput has the VALIDATION_FAILED shape', async () => {
    const response = await answer(new InvalidInput([{ path: 'body.x', message: 'bad' }]));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: [{ path: 'body.x', message: 'bad' }] },
    });
  });

  it('an unreachable database answers 503 UNAVAILABLE with Retry-After, not 500', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const response = await answer(refused);
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toMatch(/^\d+$/);
    expect(response.json().error.code).toBe('UNAVAILABLE');
    expect(response.body).not.toContain('5432');
  });

  it('DependencyUnavailable names the dependency without internals', async () => {
    const response = await answer(new DependencyUnavailable('object storage'));
    expect(response.statusCode).toBe(503);
    expect(response.json().error.message).toMatch(/object storage/);
  });

  it('anything else is a bug: 500 INTERNAL that echoes nothing', async () => {
    const response = await answer(new TypeError('secret detail'));
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe('INTERNAL');
    expect(response.body).not.toContain('secret detail');
  });
});
