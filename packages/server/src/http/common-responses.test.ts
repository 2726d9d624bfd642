import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commonStatuses, routeTraits } from './common-responses.js';

const hook = async () => {};

describe('the common refusals a route declares', () => {
  it.each([
    ['a bare GET', { method: 'GET' }, [400, 408, 431, 503]],
    ['a GET with a query schema', { method: 'GET', schema: { querystring: z.object({}) } }, [400, 408, 431, 503]],
    ['a GET with path parameters', { method: 'GET', schema: { params: z.object({}) } }, [400, 408, 431, 503]],
    ['a POST without a body schema', { method: 'POST', schema: {} }, [400, 408, 413, 415, 431, 503]],
    ['a DELETE (Fastify parses its body too)', { method: 'DELETE', schema: {} }, [400, 408, 413, 415, 431, 503]],
    [
      'a GET declaring security',
      { method: 'GET', schema: { security: [{ releaseToken: [] }] } },
      [400, 401, 403, 404, 408, 429, 431, 503],
    ],
    [
      'a GET with an access hook',
      { method: 'GET', schema: {}, onRequest: hook },
      [400, 401, 403, 404, 408, 429, 431, 503],
    ],
    [
      'a GET with an access hook list',
      { method: 'GET', schema: {}, preHandler: [hook] },
      [400, 401, 403, 404, 408, 429, 431, 503],
    ],
    ['a GET with an empty hook list', { method: 'GET', schema: {}, onRequest: [] }, [400, 408, 431, 503]],
    ['a rate-limited GET', { method: 'GET', schema: {}, config: { rateLimit: { max: 1 } } }, [400, 408, 429, 431, 503]],
    [
      'an authenticated, rate-limited POST with a body schema',
      {
        method: 'POST',
        schema: { body: z.object({}), security: [{ releaseToken: [] }] },
        config: { rateLimit: { max: 1 } },
      },
      [400, 401, 403, 404, 408, 413, 415, 429, 431, 503],
    ],
  ] as const)('%s', (_label, route, statuses) => {
    expect(commonStatuses(routeTraits(route as Parameters<typeof routeTraits>[0]))).toEqual(statuses);
  });

  it('never declares 500: only a bug answers it', () => {
    const every = { takesBody: true, authenticated: true, rateLimited: true };
    expect(commonStatuses(every)).not.toContain(500);
  });
});
