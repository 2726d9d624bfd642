import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { FastPaths } from './fast-paths.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A server from the factory whose Fastify stand-in answers "fastify". */
async function serve(paths: FastPaths) {
  const server = paths.serverFactory(
    (_request, response) => {
      response.end('fastify');
    },
    { keepAliveTimeout: 72_000, requestTimeout: 0, connectionTimeout: 0, maxRequestsPerSocket: 0 },
  ) as http.Server;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  expect(server.keepAliveTimeout).toBe(72_000);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (path = '/') => (await fetch(url + path)).text();
}

it('answers what a fast path takes, and leaves the rest, failures and everything after clear() to Fastify', async () => {
  const paths = new FastPaths();
  paths.add((request, response) => {
    if (request.url === '/boom') throw new Error('boom');
    if (request.url !== '/fast') return false;
    response.end('fast');
    return true;
  });
  const get = await serve(paths);
  expect(await get('/fast')).toBe('fast');
  expect(await get('/other')).toBe('fastify');
  expect(await get('/boom')).toBe('fastify');
  paths.clear();
  expect(await get('/fast')).toBe('fastify');
});

it('a deferred fast path answers when its promise settles, or hands the request to Fastify', async () => {
  const paths = new FastPaths();
  paths.add((request, response) => {
    if (request.url === '/later')
      return Promise.resolve().then(() => {
        response.end('later');
        return true;
      });
    if (request.url === '/declined') return Promise.resolve(false);
    if (request.url === '/failed') return Promise.reject(new Error('load failed'));
    return false;
  });
  const get = await serve(paths);
  expect(await get('/later')).toBe('later');
  expect(await get('/declined')).toBe('fastify');
  expect(await get('/failed')).toBe('fastify');
});

it('routes a crowd that arrived in one turn a share per turn, every request in the end, in order', async () => {
  const paths = new FastPaths();
  const routed: number[] = [];
  const server = paths.serverFactory(
    (request) => {
      routed.push(Number(request.url?.slice(1)));
    },
    { keepAliveTimeout: 5_000, requestTimeout: 0, connectionTimeout: 0, maxRequestsPerSocket: 0 },
  ) as http.Server;
  servers.push(server);
  // The listener as node:http calls it, 300 times in one turn, as for a crowd's requests.
  const crowd = 300;
  for (let i = 0; i < crowd; i++) paths.listener!({ url: `/${i}` } as http.IncomingMessage, {} as http.ServerResponse);
  const inFirstTurn = routed.length;
  expect(inFirstTurn).toBeGreaterThan(0);
  expect(inFirstTurn).toBeLessThan(crowd);
  await expect.poll(() => routed.length).toBe(crowd);
  expect(routed).toEqual(Array.from({ length: crowd }, (_, i) => i));
});

it('answers a crowd on a fast path a share per turn too, every request in the end, in order', async () => {
  const paths = new FastPaths();
  const answered: number[] = [];
  paths.add((request) => {
    answered.push(Number(request.url?.slice(1)));
    return true;
  });
  const server = paths.serverFactory(() => {}, {
    keepAliveTimeout: 5_000,
    requestTimeout: 0,
    connectionTimeout: 0,
    maxRequestsPerSocket: 0,
  }) as http.Server;
  servers.push(server);
  const crowd = 300;
  for (let i = 0; i < crowd; i++) paths.listener!({ url: `/${i}` } as http.IncomingMessage, {} as http.ServerResponse);
  expect(answered.length).toBeGreaterThan(0);
  expect(answered.length).toBeLessThan(crowd);
  await expect.poll(() => answered.length).toBe(crowd);
  expect(answered).toEqual(Array.from({ length: crowd }, (_, i) => i));
});
