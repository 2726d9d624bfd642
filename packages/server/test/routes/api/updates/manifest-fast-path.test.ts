import diagnostics from 'node:diagnostics_channel';
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientHeaders } from '../../../support/expo-client.js';
import { fileOf, publishRelease } from '../../../support/publisher.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

/**
 * A manifest is answered before Fastify (http/fast-paths.ts), from memory or once its track's load
 * ends; requests logged at debug go through the route. Both must answer the same bytes with the
 * same headers, in every structure and namespace.
 */
let server: TestServer;
/** Requests Fastify's router handed to a route handler (its tracing channel). */
let routed = 0;
const onRouted = () => {
  routed++;
};
diagnostics.subscribe('tracing:fastify.request.handler:start', onRouted);
let id: string;
const track = { platform: 'ios', runtimeVersion: 'fast-1', channel: 'production' } as const;

beforeAll(async () => {
  server = await startTestServer('sqlite');
  ({ id } = await publishRelease(server, {
    ...track,
    launch: fileOf('console.log("fast");'.repeat(100), 'application/javascript', '.bundle'),
  }));
});
afterAll(async () => {
  diagnostics.unsubscribe('tracing:fastify.request.handler:start', onRouted);
  await server?.close();
});

function get(headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${server.url}/api/updates/manifest`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

const comparable = (answer: Awaited<ReturnType<typeof get>>) => {
  const { date: _date, ...headers } = answer.headers;
  return { status: answer.status, headers, body: answer.body.toString('base64') };
};

it.each([
  ['expo', 'multipart/mixed,application/expo+json,application/json', undefined],
  ['ota', 'multipart/mixed', undefined],
  ['expo', 'application/expo+json', undefined],
  ['ota', 'application/json', undefined],
  ['expo', 'multipart/mixed', 'current'],
  ['ota', 'multipart/mixed', 'current'],
  ['expo', 'application/json', 'current'],
] as const)(
  '%s, accept %s, current update %s: the fast path answers what the route answers',
  async (ns, accept, current) => {
    const headers = {
      ...clientHeaders(ns, { ...track, currentUpdateId: current ? id : undefined }),
      accept,
    };
    // Through Fastify: the server logs request lines at debug, which the fast path leaves to Fastify.
    const level = server.app.log.level;
    server.app.log.level = 'debug';
    const beforeRouted = routed;
    const throughRoute = await get(headers);
    server.app.log.level = level;
    expect(routed).toBe(beforeRouted + 1);
    const fast = await get(headers);
    // Answered before Fastify: its router handed nothing to a route handler.
    expect(routed).toBe(beforeRouted + 1);
    // Up to date: expo-updates accepting multipart gets the signed noUpdateAvailable directive, the rest 204.
    expect(fast.status).toBe(current && (ns === 'ota' || accept !== 'multipart/mixed') ? 204 : 200);
    expect(comparable(fast)).toEqual(comparable(throughRoute));
    // The route logged its request line; the fast path did not.
    expect(server.logs.entries().filter((entry) => entry.msg === 'request').length).toBeGreaterThan(0);
  },
);

it('a track not in memory is loaded once and answered before Fastify too', async () => {
  // A second instance on the same database: the track is new to it.
  const other = await startTestServer('sqlite', { database: server.database });
  try {
    const before = routed;
    const headers = clientHeaders('expo', track);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => fetch(`${other.url}/api/updates/manifest`, { headers })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain(id);
    }
    expect(routed).toBe(before);
  } finally {
    await other.close();
  }
});
